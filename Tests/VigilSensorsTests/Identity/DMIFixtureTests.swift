import Testing
import VigilTestSupport

@testable import VigilSensors

/// Every machine in `Tests/Fixtures/dmi` against its README: the chassis class and the vendor and model that
/// systemd-hostnamed shows, read through the whole identity (hostname from a fake procfs).
@Suite(.timeLimit(.minutes(5))) struct DMIFixtureTests {
    struct Machine: Sendable, CustomTestStringConvertible {
        let folder: String
        let chassisType: Int
        let chassis: ChassisClass?
        let vendor: String
        let model: String
        var testDescription: String { folder }
    }

    static let machines = [
        Machine(
            folder: "laptop-lenovo-thinkpad-t14-gen1", chassisType: 10, chassis: .laptop, vendor: "Lenovo",
            model: "ThinkPad T14 Gen 1"),
        Machine(
            folder: "desktop-dell-optiplex-3060", chassisType: 3, chassis: .desktop, vendor: "Dell Inc.",
            model: "OptiPlex 3060"),
        Machine(
            folder: "server-supermicro-x10drw-i", chassisType: 17, chassis: .server, vendor: "Supermicro",
            model: "Super Server"),
        Machine(
            folder: "server-dell-poweredge-r740", chassisType: 23, chassis: nil, vendor: "Dell Inc.",
            model: "PowerEdge R740"),
        Machine(
            folder: "convertible-lenovo-yoga-14cacn", chassisType: 31, chassis: .convertible, vendor: "Lenovo",
            model: "Yoga 14cACN 2021"),
        Machine(
            folder: "tablet-teclast-x80-pro", chassisType: 30, chassis: .tablet, vendor: "TECLAST", model: "X80 Pro"),
        Machine(
            folder: "tablet-microsoft-surface-go-2", chassisType: 9, chassis: .laptop,
            vendor: "Microsoft Corporation", model: "Surface Go 2"),
        Machine(
            folder: "vm-qemu-q35-lxd", chassisType: 1, chassis: .vm, vendor: "QEMU",
            model: "Standard PC (Q35 + ICH9, 2009)"),
        Machine(
            folder: "desktop-asus-m4a785td-m-evo-oem-junk", chassisType: 3, chassis: .desktop,
            vendor: "ASUSTeK Computer INC.", model: "M4A785TD-M EVO"),
        Machine(
            folder: "desktop-asrock-b550-extreme4-oem-junk", chassisType: 3, chassis: .desktop, vendor: "ASRock",
            model: "B550 Extreme4"),
    ]

    /// The identity of a fixture machine: its DMI tree as sysfs, a fake procfs holding only a hostname.
    static func identity(_ folder: String) throws -> DeviceIdentity {
        let proc = FakeSysfsTree()
        proc.write("sys/kernel/hostname", "fixture\n")
        let etc = FakeSysfsTree()
        return try DeviceIdentity.read(
            IdentityPaths(sys: Fixtures.path("dmi/\(folder)/sys"), proc: proc.root, etc: etc.root))
    }

    @Test func everyMachineFolderIsTested() {
        #expect(Fixtures.names("dmi") == Self.machines.map(\.folder).sorted())
    }

    @Test(arguments: machines) func classifiesAsTheReadmeSays(_ machine: Machine) throws {
        let identity = try Self.identity(machine.folder)
        let dmi = try #require(identity.dmi)
        #expect(dmi.chassisType == machine.chassisType)
        #expect(identity.chassis == machine.chassis)
        #expect(identity.hardwareVendor == machine.vendor)
        #expect(identity.hardwareModel == machine.model)
        #expect(identity.problems.isEmpty)
        #expect(dmi.hiddenFields.isEmpty)
        #expect(identity.hostname == "fixture")
        #expect(identity.virtualization == (machine.chassis == .vm ? "qemu" : nil))
        #expect(
            identity.chassisEvidence
                == (machine.chassis == .vm
                    ? .virtualization : machine.chassis.map { _ in DeviceIdentity.ChassisEvidence.dmi }))
    }

    /// Blanks at both ends are trimmed, inner blanks kept; an empty or all-blank string is absent.
    @Test func trimsPaddingAndKeepsInnerBlanks() throws {
        let asus = try #require(try Self.identity("desktop-asus-m4a785td-m-evo-oem-junk").dmi)
        #expect(asus.biosVersion == "0918")
        let thinkpad = try #require(try Self.identity("laptop-lenovo-thinkpad-t14-gen1").dmi)
        #expect(thinkpad.biosVersion == "N2XET35W (1.25 )")
        #expect(thinkpad.ecFirmwareRelease == "1.14")
        #expect(thinkpad.productName == "20S0000NBM")
        #expect(thinkpad.productSKU == "LENOVO_MT_20S0_BU_Think_FM_ThinkPad T14 Gen 1")
        let asrock = try #require(try Self.identity("desktop-asrock-b550-extreme4-oem-junk").dmi)
        #expect(asrock.boardVersion == nil)
        let dell = try #require(try Self.identity("desktop-dell-optiplex-3060").dmi)
        #expect(dell.productVersion == nil && dell.chassisVersion == nil)
        #expect(dell.productSKU == "085C")
        #expect(dell.chassisTypeName == "Desktop")
    }

    /// Vendors' placeholders are absent, not names; real values beside them stay.
    @Test func reportsPlaceholdersAsAbsent() throws {
        let asus = try #require(try Self.identity("desktop-asus-m4a785td-m-evo-oem-junk").dmi)
        #expect(asus.systemVendor == nil && asus.productName == nil && asus.productVersion == nil)
        #expect(asus.productSKU == nil && asus.productFamily == nil)
        #expect(asus.chassisVendor == nil && asus.chassisVersion == nil)
        #expect(asus.boardVendor == "ASUSTeK Computer INC." && asus.boardVersion == "Rev X.0x")
        let asrock = try #require(try Self.identity("desktop-asrock-b550-extreme4-oem-junk").dmi)
        #expect(asrock.systemVendor == nil && asrock.productVersion == nil && asrock.productSKU == nil)
        #expect(asrock.productName == "B550 Extreme4")
        let supermicro = try #require(try Self.identity("server-supermicro-x10drw-i").dmi)
        #expect(supermicro.productVersion == nil && supermicro.chassisVersion == nil)
        #expect(supermicro.productSKU == nil && supermicro.productFamily == nil)
        #expect(supermicro.boardName == "X10DRW-i")
        let teclast = try #require(try Self.identity("tablet-teclast-x80-pro").dmi)
        #expect(teclast.productVersion == nil && teclast.boardVersion == nil && teclast.productFamily == "Tablet")
        let thinkpad = try #require(try Self.identity("laptop-lenovo-thinkpad-t14-gen1").dmi)
        #expect(thinkpad.chassisVersion == nil)
        let surface = try #require(try Self.identity("tablet-microsoft-surface-go-2").dmi)
        #expect(surface.productVersion == "1" && surface.chassisVersion == nil)
        let r740 = try #require(try Self.identity("server-dell-poweredge-r740").dmi)
        #expect(r740.productSKU == "SKU=0715;ModelName=PowerEdge R740")
    }

    @Test func keepsTheFirmwareDateAsWritten() throws {
        let qemu = try #require(try Self.identity("vm-qemu-q35-lxd").dmi)
        #expect(qemu.biosDate == "2/2/2022")
        #expect(qemu.biosRelease == "0.0")
        #expect(qemu.biosVendor == "EDK II")
        #expect(qemu.productSKU == nil && qemu.productFamily == nil)
        #expect(qemu.boardVendor == "Canonical Ltd." && qemu.boardName == "LXD")
    }

    @Test(arguments: [
        "To Be Filled By O.E.M.", "to be filled by o.e.m.", "Default string", "DEFAULT STRING", "System Product Name",
        "System manufacturer", "Not Applicable", "O.E.M.", "OEM", "N/A", "0123456789", "Not Specified",
    ])
    func knowsAPlaceholder(text: String) {
        #expect(DMIText.isPlaceholder(text))
    }

    @Test(arguments: ["Dell Inc.", "ThinkPad T14 Gen 1", "System76", "OEM Systems Ltd", "1", "X80 Pro", "Default"])
    func keepsARealName(text: String) {
        #expect(!DMIText.isPlaceholder(text))
    }
}
