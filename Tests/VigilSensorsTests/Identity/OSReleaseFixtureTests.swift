import Testing
import VigilTestSupport

@testable import VigilSensors

/// Every os-release file in `Tests/Fixtures/os-release` against the values its README lists (checked there with a
/// POSIX-shell tokenizer): the oracle.
@Suite(.timeLimit(.minutes(5))) struct OSReleaseFixtureTests {
    struct Expected: Sendable, CustomTestStringConvertible {
        let file: String
        let prettyName: String
        let id: String
        let versionID: String?
        let idLike: [String]
        let versionCodename: String?
        var testDescription: String { file }
    }

    static let expected = [
        Expected(
            file: "ubuntu-24.04", prettyName: "Ubuntu 24.04.3 LTS", id: "ubuntu", versionID: "24.04",
            idLike: ["debian"], versionCodename: "noble"),
        Expected(
            file: "debian-13", prettyName: "Debian GNU/Linux 13 (trixie)", id: "debian", versionID: "13", idLike: [],
            versionCodename: "trixie"),
        Expected(
            file: "centos-7", prettyName: "CentOS Linux 7 (Core)", id: "centos", versionID: "7",
            idLike: ["rhel", "fedora"], versionCodename: nil),
        Expected(
            file: "rhel-9.6", prettyName: "Red Hat Enterprise Linux 9.6 (Plow)", id: "rhel", versionID: "9.6",
            idLike: ["fedora"], versionCodename: nil),
        Expected(
            file: "fedora-42", prettyName: "Fedora Linux 42 (Forty Two)", id: "fedora", versionID: "42", idLike: [],
            versionCodename: ""),
        Expected(
            file: "arch", prettyName: "Arch Linux", id: "arch", versionID: nil, idLike: [], versionCodename: nil),
        Expected(
            file: "alpine-3.23", prettyName: "Alpine Linux v3.23", id: "alpine", versionID: "3.23.2", idLike: [],
            versionCodename: nil),
        Expected(
            file: "opensuse-leap-15.2", prettyName: "openSUSE Leap 15.2", id: "opensuse-leap", versionID: "15.2",
            idLike: ["suse", "opensuse"], versionCodename: nil),
        Expected(
            file: "rocky-9.3", prettyName: "Rocky Linux 9.3 (Blue Onyx)", id: "rocky", versionID: "9.3",
            idLike: ["rhel", "centos", "fedora"], versionCodename: nil),
        Expected(
            file: "amazon-linux-2023", prettyName: "Amazon Linux 2023", id: "amzn", versionID: "2023",
            idLike: ["fedora"], versionCodename: nil),
        Expected(
            file: "linuxmint-17", prettyName: "Ubuntu 14.04.3 LTS", id: "ubuntu", versionID: "14.04",
            idLike: ["debian"], versionCodename: nil),
        Expected(
            file: "sles-12-sp1", prettyName: "SUSE Linux Enterprise Server 12 SP1", id: "sles", versionID: "12.1",
            idLike: [], versionCodename: nil),
        Expected(
            file: "coreos-899.15.0", prettyName: "CoreOS 899.15.0", id: "coreos", versionID: "899.15.0", idLike: [],
            versionCodename: nil),
        Expected(
            file: "buildroot-2022.02", prettyName: "Buildroot 2022.02", id: "buildroot", versionID: "2022.02",
            idLike: [], versionCodename: nil),
        Expected(
            file: "openelec-6.0", prettyName: "OpenELEC (official) - Version: 6.0.3", id: "openelec",
            versionID: "6.0", idLike: [], versionCodename: nil),
        Expected(
            file: "gentoo", prettyName: "Gentoo/Linux", id: "gentoo", versionID: nil, idLike: [],
            versionCodename: nil),
    ]

    @Test func everyFixtureHasExpectedValues() {
        #expect(Fixtures.names("os-release") == Self.expected.map { $0.file + ".os-release" }.sorted())
    }

    @Test(arguments: expected) func parsesAsTheReadmeSays(_ expected: Expected) throws {
        let path = Fixtures.path("os-release/\(expected.file).os-release")
        let system = OperatingSystem(path: path, file: EnvironmentFile(parsing: try SysfsFile.readText(path)))
        #expect(system.prettyName == expected.prettyName)
        #expect(system.id == expected.id)
        #expect(system.versionID == expected.versionID)
        #expect(system.idLike == expected.idLike)
        #expect(system.versionCodename == expected.versionCodename)
        #expect(system.malformedLines.isEmpty)
        #expect(system.displayName == expected.prettyName)
        for (key, value) in system.fields {
            #expect(!value.hasSuffix("\r") && !value.hasPrefix("\"") && !value.hasSuffix("\""), "\(key)=\(value)")
        }
    }

    @Test func displayNameFallsBackToNameAndVersionThenLinux() {
        let named = OperatingSystem(path: "x", file: EnvironmentFile(parsing: "NAME=Foo\nVERSION=\"1 (one)\"\n"))
        #expect(named.displayName == "Foo 1 (one)")
        #expect(OperatingSystem(path: "x", file: EnvironmentFile(parsing: "ID=foo\n")).displayName == "Linux")
    }
}
