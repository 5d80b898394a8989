import Glibc
import Testing
import VigilTestSupport

@testable import VigilSensors

/// Containers, told as `systemd-detect-virt --container` tells them (so the chassis is hostnamectl's `container`):
/// each marker on a fake root file system, their order, and a fake etc root whose folder is nobody's root.
@Suite(.timeLimit(.minutes(10))) struct ContainerDetectionTests {
    typealias Roots = DeviceIdentityReadTests.Roots

    /// A root file system (`image`, its etc at `image/etc`) on a desktop's DMI, and a procfs with a kernel release.
    static func desktop() -> Roots {
        let roots = Roots()
        roots.proc.write("sys/kernel/osrelease", "6.1.0-13-amd64\n")
        roots.sys.device("class/dmi/id", ["sys_vendor": "Dell Inc.", "chassis_type": "3"])
        return roots
    }

    @Test func withoutAMarkerTheHardwareDecides() throws {
        let identity = try Self.desktop().read()
        #expect(identity.container == nil && identity.chassis == .desktop && identity.chassisEvidence == .dmi)
        #expect(identity.iconName == "computer-desktop", "hostnamed's fallback icon")
    }

    @Test func dockersFileMakesAContainerBeforeTheHardware() throws {
        let roots = Self.desktop()
        roots.image.write(".dockerenv", "")
        let identity = try roots.read()
        #expect(identity.container == "docker")
        #expect(identity.chassis == .container && identity.chassisEvidence == .virtualization)
        #expect(identity.description.contains("chassis container (docker)"), "\(identity.description)")
        #expect(identity.iconName == "computer-container")
        // The DMI tables are the host's: kept as read, but not named as this machine's hardware, as hostnamed does.
        #expect(identity.hardwareVendor == nil && identity.hardwareModel == nil)
        #expect(identity.dmi?.systemVendor == "Dell Inc.")
        roots.image.write("run/.containerenv", "engine=\"podman-4.3.1\"\n")
        #expect(try roots.read().container == "podman", "podman's file is checked first")
    }

    @Test func whatTheManagerWroteComesBeforeTheEnginesFiles() throws {
        let roots = Self.desktop()
        roots.image.write(".dockerenv", "")
        roots.image.write("run/systemd/container", "lxc\n")
        #expect(try roots.read().container == "lxc")
        roots.image.write("run/host/container-manager", "systemd-nspawn\n")
        #expect(try roots.read().container == "systemd-nspawn")
        roots.image.write("run/host/container-manager", "flatpak-like-thing\n")
        #expect(try roots.read().container == "container-other")
        roots.image.write("run/host/container-manager", "\n")
        #expect(try roots.read().container == "lxc", "an empty name is no marker")
    }

    @Test func pidOnesEnvironmentNamesTheManager() throws {
        let roots = Self.desktop()
        roots.proc.write("1/environ", "PATH=/usr/bin\u{0}container=podman\u{0}TERM=linux\u{0}")
        #expect(try roots.read().container == "podman")
        roots.proc.write("1/environ", "PATH=/usr/bin\u{0}HOME=/\u{0}")
        #expect(try roots.read().container == nil)
    }

    @Test func openVZAndWSLAreToldByTheKernel() throws {
        let roots = Self.desktop()
        roots.proc.makeDirectory("vz")
        #expect(try roots.read().container == "openvz")
        roots.proc.makeDirectory("bc")
        #expect(try roots.read().container == nil, "/proc/bc beside /proc/vz is the OpenVZ host")
        roots.proc.write("sys/kernel/osrelease", "5.15.153.1-microsoft-standard-WSL2\n")
        #expect(try roots.read().container == "wsl")
    }

    @Test func theAdministratorsChassisStillWins() throws {
        let roots = Self.desktop()
        roots.image.write(".dockerenv", "")
        roots.image.write("etc/machine-info", "CHASSIS=server\n")
        let identity = try roots.read()
        #expect(identity.chassis == .server && identity.chassisEvidence == .machineInfo)
        #expect(identity.container == "docker")
    }

    /// An etc root not named `etc` (a fake tree's) has no root file system: the markers beside it are not read.
    @Test func markersBesideAnEtcRootOfAnotherNameAreNotRead() throws {
        let roots = Self.desktop()
        roots.image.write(".dockerenv", "")
        roots.image.write("config/os-release", "ID=x\n")
        let identity = try DeviceIdentity.read(
            IdentityPaths(sys: roots.sys.root, proc: roots.proc.root, etc: roots.image.root + "/config"))
        #expect(identity.container == nil && identity.chassis == .desktop)
        #expect(IdentityPaths(sys: "/sys", proc: "/proc", etc: "/etc").fileSystemRoot == "")
        #expect(IdentityPaths(sys: "/sys", proc: "/proc", etc: "/mnt/image/etc/").fileSystemRoot == "/mnt/image")
    }

    @Test func hostileMarkersAreAbsentNotFatal() throws {
        let roots = Self.desktop()
        roots.image.makeDirectory("run/systemd/container")
        roots.image.makeDirectory("run/host")
        mkfifo(roots.image.root + "/run/host/container-manager", 0o600)
        roots.proc.write("1/environ", String(repeating: "x", count: 200_000))
        let identity = try roots.read()
        #expect(identity.container == nil && identity.chassis == .desktop && identity.problems.isEmpty)
    }
}
