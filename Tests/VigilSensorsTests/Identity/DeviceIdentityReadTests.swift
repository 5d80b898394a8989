import Glibc
import Testing
import VigilTestSupport

@testable import VigilSensors

/// Reading the identity from fake trees: which os-release is read, the fallbacks of the chassis, the device tree, and
/// hostile files where attributes should be, each hiding only itself.
@Suite(.timeLimit(.minutes(5))) struct DeviceIdentityReadTests {
    /// Three fake roots; `sys` empty, `proc` with a hostname.
    final class Roots {
        let sys = FakeSysfsTree()
        let proc = FakeSysfsTree()
        let image = FakeSysfsTree()
        var etc: String { image.root + "/etc" }

        init() {
            proc.write("sys/kernel/hostname", "box\n")
            image.makeDirectory("etc")
        }

        var paths: IdentityPaths { IdentityPaths(sys: sys.root, proc: proc.root, etc: etc) }
        func read() throws -> DeviceIdentity { try DeviceIdentity.read(paths) }
    }

    @Test func readsEtcOsReleaseAndNeverMergesTheVendorCopy() throws {
        let roots = Roots()
        roots.image.write("etc/os-release", "ID=local\nNAME=Local\n")
        roots.image.write("usr/lib/os-release", "ID=vendor\nVERSION_ID=9\nPRETTY_NAME=\"Vendor 9\"\n")
        let system = try #require(try roots.read().operatingSystem)
        #expect(system.id == "local" && system.versionID == nil && system.prettyName == nil)
        #expect(system.path == roots.etc + "/os-release")
    }

    @Test func fallsBackToUsrLibWhenEtcHasNone() throws {
        let roots = Roots()
        roots.image.write("usr/lib/os-release", "ID=vendor\n")
        #expect(try roots.read().operatingSystem?.path == roots.image.root + "/usr/lib/os-release")
        roots.image.link("etc/os-release", to: "../usr/lib/nothing-here")
        #expect(try roots.read().operatingSystem?.id == "vendor", "a dangling link counts as missing")
        roots.image.remove("etc/os-release")
        roots.image.link("etc/os-release", to: "../usr/lib/os-release")
        #expect(try roots.read().operatingSystem?.path == roots.etc + "/os-release")
        roots.image.remove("usr/lib/os-release")
        roots.image.remove("etc/os-release")
        let identity = try roots.read()
        #expect(identity.operatingSystem == nil && identity.problems.isEmpty)
    }

    @Test func theVendorCopyOfTheRealRootIsUsrLib() {
        let paths = IdentityPaths(sys: "/sys", proc: "/proc", etc: "/etc")
        #expect(paths.osRelease == ["/etc/os-release", "/usr/lib/os-release"])
        #expect(
            IdentityPaths(sys: "", proc: "", etc: "/mnt/image/etc/").osRelease.last == "/mnt/image/usr/lib/os-release")
    }

    /// An os-release that is unreadable for another reason than absence is a problem, and the vendor copy is not
    /// read in its place: one file, never the other as a guess.
    @Test func aBrokenEtcOsReleaseIsAProblemNotAFallback() throws {
        let roots = Roots()
        roots.image.makeDirectory("etc/os-release")
        roots.image.write("usr/lib/os-release", "ID=vendor\n")
        let identity = try roots.read()
        #expect(identity.operatingSystem == nil)
        #expect(identity.problems == ["\(roots.etc)/os-release is a directory, not an attribute file"])
    }

    @Test func reportsMalformedOsReleaseLinesAndKeepsTheRest() throws {
        let roots = Roots()
        roots.image.write("etc/os-release", "ID=ok\nPRETTY_NAME=\"Broken\nVERSION_ID=1\n")
        let system = try #require(try roots.read().operatingSystem)
        #expect(system.id == "ok" && system.versionID == "1" && system.prettyName == nil)
        #expect(system.malformedLines == [2])
    }

    @Test func readsBootAndMachineIDs() throws {
        let roots = Roots()
        roots.proc.write("sys/kernel/random/boot_id", "041633d5-682b-4bb6-99b7-ce52309aa300\n")
        roots.image.write("etc/machine-id", "3d1219c7c4c5404aaa1f6d2a48adfda4\n")
        var identity = try roots.read()
        #expect(identity.bootID == "041633d5-682b-4bb6-99b7-ce52309aa300")
        #expect(identity.machineID == "3d1219c7c4c5404aaa1f6d2a48adfda4")
        roots.image.write("etc/machine-id", "uninitialized\n")
        #expect(try roots.read().machineID == nil)
        roots.image.write("etc/machine-id", "")
        identity = try roots.read()
        #expect(identity.machineID == nil && identity.problems.isEmpty)
        roots.image.write("etc/machine-id", "not-a-machine-id\n")
        identity = try roots.read()
        #expect(identity.machineID == nil)
        #expect(identity.problems.count == 1 && identity.problems[0].contains("machine-id"))
    }

    /// machine-info(5) and hostname(5): the administrator's chassis wins over everything hostnamed would derive.
    @Test func readsMachineInfoAndTheStaticHostname() throws {
        let roots = Roots()
        roots.sys.device("class/dmi/id", ["sys_vendor": "QEMU", "chassis_type": "1"])
        roots.image.write("etc/hostname", "# set by the installer\n\n  kiosk-07  \nignored\n")
        roots.image.write(
            "etc/machine-info",
            "PRETTY_HOSTNAME=\"Kiosk 7\"\nCHASSIS=tablet\nDEPLOYMENT=production\nLOCATION='Hall 2'\nICON_NAME=kiosk\n")
        let identity = try roots.read()
        #expect(identity.staticHostname == "kiosk-07" && identity.hostname == "box")
        #expect(identity.prettyHostname == "Kiosk 7" && identity.deployment == "production")
        #expect(identity.location == "Hall 2" && identity.iconName == "kiosk")
        #expect(identity.chassis == .tablet && identity.chassisEvidence == .machineInfo)
        #expect(identity.virtualization == "qemu" && identity.problems.isEmpty)
        #expect(identity.description.hasPrefix("box (Kiosk 7), "))
        roots.image.write("etc/machine-info", "CHASSIS=spaceship\n")
        let unknown = try roots.read()
        #expect(unknown.chassis == .vm && unknown.chassisEvidence == .virtualization)
        #expect(unknown.problems.count == 1 && unknown.problems[0].contains("CHASSIS=spaceship"))
        roots.image.write("etc/hostname", "# only a comment\n")
        #expect(try roots.read().staticHostname == nil)
    }

    @Test func withoutAHostnameThereIsNoIdentity() {
        let roots = Roots()
        roots.proc.remove("sys/kernel/hostname")
        #expect(throws: SensorError.notFound(path: roots.paths.hostname)) { try DeviceIdentity.read(roots.paths) }
    }

    @Test func readsTheDeviceTreeOfABoardWithoutDMI() throws {
        let roots = Roots()
        roots.proc.write("device-tree/model", "Raspberry Pi 4 Model B Rev 1.4\0")
        roots.proc.write("device-tree/compatible", "raspberrypi,4-model-b\0brcm,bcm2711\0")
        roots.proc.write("device-tree/chassis-type", "embedded\0")
        let identity = try roots.read()
        #expect(identity.dmi == nil)
        #expect(identity.deviceTree?.compatible == ["raspberrypi,4-model-b", "brcm,bcm2711"])
        #expect(identity.hardwareModel == "Raspberry Pi 4 Model B Rev 1.4")
        #expect(identity.hardwareVendor == nil)
        #expect(identity.chassis == .embedded && identity.chassisEvidence == .deviceTree)
    }

    /// SMBIOS first, then ACPI's profile, then the device tree; a type SMBIOS maps to nothing lets ACPI decide.
    @Test func fallsBackFromSMBIOSToACPIToTheDeviceTree() throws {
        let roots = Roots()
        roots.proc.write("device-tree/chassis-type", "handset\0")
        #expect(try roots.read().chassis == .handset)
        roots.sys.write("firmware/acpi/pm_profile", "4\n")
        #expect(try roots.read().chassis == .server)
        roots.sys.device("class/dmi/id", ["chassis_type": "23"])
        let rack = try roots.read()
        #expect(rack.chassis == .server && rack.chassisEvidence == .acpi)
        #expect(rack.dmi?.chassisTypeName == "Rack Mount Chassis")
        roots.sys.write("class/dmi/id/chassis_type", "10\n")
        #expect(try roots.read().chassis == .laptop)
        roots.sys.write("firmware/acpi/pm_profile", "0\n")
        roots.sys.write("class/dmi/id/chassis_type", "2\n")
        #expect(try roots.read().chassis == .handset, "unspecified ACPI profile and Unknown SMBIOS type")
    }

    static let hypervisors: [(String, String, String?)] = [
        ("KVM", "product_name", "kvm"), ("VMware, Inc.", "sys_vendor", "vmware"),
        ("innotek GmbH", "board_vendor", "oracle"), ("Xen", "bios_vendor", "xen"),
        ("Hyper-V UEFI Release v4.1", "product_version", "microsoft"), ("Microsoft Corporation", "sys_vendor", nil),
        ("Oracle Corporation", "sys_vendor", nil),
    ]

    @Test(arguments: hypervisors) func hintsAtVirtualizationFromDMI(value: String, file: String, hypervisor: String?)
        throws
    {
        let roots = Roots()
        roots.sys.device("class/dmi/id", [file: value, "chassis_type": "3"])
        let identity = try roots.read()
        #expect(identity.virtualization == hypervisor)
        #expect(identity.chassis == (hypervisor == nil ? .desktop : .vm))
    }

    /// The head of this CI machine's `/proc/cpuinfo` (a KVM guest without DMI), flags cut to the neighbours of
    /// `hypervisor`; the second block's flags lack it, and are never read.
    static let guestCPU = """
        processor\t: 0
        vendor_id\t: GenuineIntel
        model name\t: Intel(R) Xeon(R) Processor
        flags\t\t: fpu vme de pse tsc msr pae rdrand hypervisor lahf_lm abm 3dnowprefetch cpuid_fault
        bugs\t\t: spectre_v1 spectre_v2

        processor\t: 1
        flags\t\t: fpu vme

        """

    /// systemd-hostnamed says `vm` for a guest whose firmware names no hypervisor (a Firecracker VM has no DMI),
    /// from the CPU; so does vigil, from the kernel's flags. A hypervisor DMI names keeps its name.
    @Test func theCPUsHypervisorFlagMakesAnUnnamedVM() throws {
        let roots = Roots()
        roots.sys.device("class/dmi/id", ["sys_vendor": "Dell Inc.", "chassis_type": "3"])
        #expect(try roots.read().chassis == .desktop, "no cpuinfo: no sign")
        roots.proc.write("cpuinfo", Self.guestCPU)
        let guest = try roots.read()
        #expect(guest.virtualization == "vm-other" && guest.chassis == .vm)
        #expect(guest.chassisEvidence == .virtualization && guest.iconName == "computer-vm")
        #expect(guest.problems.isEmpty)
        roots.sys.write("class/dmi/id/sys_vendor", "QEMU\n")
        #expect(try roots.read().virtualization == "qemu")
        roots.image.write("etc/machine-info", "CHASSIS=server\n")
        #expect(try roots.read().chassis == .server, "the administrator's chassis still wins")
    }

    /// Only the first `flags` line counts, and only the whole word; another architecture's cpuinfo has no flag.
    @Test(arguments: [
        ("flags\t\t: fpu hypervisor_x vme\n", false), ("flags\t: hypervisor\n", true),
        ("processor\t: 0\nflags\t\t: fpu\n\nprocessor\t: 1\nflags\t\t: hypervisor\n", false),
        ("model name\t: hypervisor\nflags\t\t: fpu\n", false), ("Features\t: fp asimd evtstrm hypervisor\n", false),
        ("", false), ("flags hypervisor\n", false),
    ])
    func readsTheHypervisorFlagAsAWord(cpuinfo: String, shows: Bool) {
        #expect(Virtualization.cpuFlagsShowAHypervisor(cpuinfo) == shows)
    }

    /// A cpuinfo of thousands of cores is read only as far as its head; a FIFO there hides only itself.
    @Test func readsOnlyTheHeadOfCpuinfo() throws {
        let roots = Roots()
        let block = Self.guestCPU.split(separator: "\n\n")[0] + "\n\n"
        roots.proc.write("cpuinfo", String(repeating: String(block), count: 16384))
        #expect(try roots.read().virtualization == "vm-other")
        roots.proc.remove("cpuinfo")
        #expect(mkfifo(roots.paths.cpuinfo, 0o600) == 0)
        let fifo = try roots.read()
        #expect(fifo.virtualization == nil && fifo.problems.count == 1 && fifo.problems[0].contains("cpuinfo"))
    }

    /// A FIFO, a link to `/dev/zero`, a directory, a dangling link, an over-long file: each hides only itself.
    @Test func hostileAttributesHideOnlyThemselves() throws {
        let roots = Roots()
        roots.sys.device("class/dmi/id", ["sys_vendor": "Dell Inc.", "chassis_type": "3"])
        let dmi = roots.sys.root + "/class/dmi/id"
        try #require(mkfifo(dmi + "/product_name", 0o600) == 0)
        roots.sys.link("class/dmi/id/bios_vendor", to: "/dev/zero")
        roots.sys.makeDirectory("class/dmi/id/board_name")
        roots.sys.link("class/dmi/id/board_vendor", to: "nowhere")
        roots.sys.write("class/dmi/id/product_family", String(repeating: "x", count: SysfsFile.attributeLimit + 1))
        roots.sys.write("class/dmi/id/product_version", String(decoding: [0x58, 0xFF, 0x59, 0x0A], as: UTF8.self))
        roots.proc.link("sys/kernel/random/boot_id", to: "/dev/zero")
        let identity = try roots.read()
        let read = try #require(identity.dmi)
        #expect(read.systemVendor == "Dell Inc." && read.chassisType == 3 && identity.chassis == .desktop)
        #expect(read.productName == nil && read.biosVendor == nil && read.boardName == nil)
        #expect(read.boardVendor == nil && read.productFamily == nil)
        #expect(read.productVersion == "X\u{FFFD}Y")
        #expect(identity.bootID == nil)
        #expect(
            Set(identity.problems) == [
                "\(dmi)/product_name is a FIFO, not an attribute file",
                "\(dmi)/bios_vendor is a character device, not an attribute file",
                "\(dmi)/board_name is a directory, not an attribute file",
                "\(dmi)/product_family holds more than \(SysfsFile.attributeLimit) bytes, more than such a file ever "
                    + "holds; it was not parsed",
                "\(roots.proc.root)/sys/kernel/random/boot_id is a character device, not an attribute file",
            ])
        #expect(identity.description.contains("5 unreadable"))
    }

    @Test(arguments: ["-1", "256", "desktop", "99999999999999999999999"])
    func aMalformedChassisTypeIsAProblem(text: String) throws {
        let roots = Roots()
        roots.sys.device("class/dmi/id", ["chassis_type": text])
        let identity = try roots.read()
        #expect(identity.dmi?.chassisType == nil && identity.chassis == nil)
        #expect(identity.problems.count == 1)
    }

    @Test func theSMBIOSNameOfEveryChassisType() {
        #expect(ChassisClass.smbiosName(of: 10) == "Notebook")
        #expect(ChassisClass.smbiosName(of: 36) == "Stick PC")
        #expect(ChassisClass.smbiosName(of: 0) == nil && ChassisClass.smbiosName(of: 37) == nil)
        let classes = (0...40).compactMap { ChassisClass(smbiosChassisType: $0) }
        #expect(Set(classes) == [.desktop, .laptop, .handset, .server, .tablet, .convertible, .embedded])
    }
}
