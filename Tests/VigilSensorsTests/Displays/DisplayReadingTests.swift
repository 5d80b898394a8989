import FoundationEssentials
import Glibc
import Testing
import VigilSensors
import VigilTestSupport

/// DRM connectors read from fake `/sys/class/drm` trees holding real EDIDs, and from hostile ones.
@Suite(.timeLimit(.minutes(5))) struct DisplayReadingTests {
    /// A tree with the connectors of ``FakeMachine/addDisplays()``.
    static func laptop() -> FakeMachine {
        let machine = FakeMachine.empty()
        machine.addDisplays()
        return machine
    }

    static func connector(_ reading: DisplayReading, _ name: String) throws -> DisplayConnector {
        try #require(reading.connectors.first { $0.name == name }, "no \(name) in \(reading)")
    }

    @Test func readsEveryConnectorWithItsStateAndEDID() throws {
        let machine = Self.laptop()
        let reading = try DisplayReading.read(root: machine.sys.root)
        #expect(reading.connectors.map(\.name) == ["card0-HDMI-A-1", "card0-eDP-1"])
        #expect(reading.problems.isEmpty)
        let panel = try Self.connector(reading, "card0-eDP-1")
        #expect(panel.card == "card0" && panel.connector == "eDP-1" && panel.type == "eDP")
        #expect(panel.isInternal)
        #expect(panel.status == .connected && panel.isEnabled == true && panel.dpms == "On")
        #expect(panel.modes == ["1920x1080", "1920x1080"])
        #expect(panel.edid?.manufacturer == "BOE")
        #expect(panel.edid?.productCode == 0x07AF)
        #expect(panel.notes.isEmpty)
        let port = try Self.connector(reading, "card0-HDMI-A-1")
        #expect(port.type == "HDMI-A" && !port.isInternal)
        #expect(port.status == .disconnected && port.isEnabled == false && port.dpms == "Off")
        #expect(port.modes.isEmpty)
        #expect(port.edid == nil, "an empty edid means no display")
        #expect(port.notes.isEmpty)
        #expect(reading.connected.map(\.name) == ["card0-eDP-1"])
        #expect(reading.description.contains("card0-eDP-1 (eDP, internal): connected, enabled, dpms On"))
    }

    @Test(arguments: [
        ("card0-DP-1", "DP", false), ("card1-LVDS-1", "LVDS", true), ("card0-DSI-1", "DSI", true),
        ("card0-DVI-D-1", "DVI-D", false), ("card0-Virtual-1", "Virtual", false),
        ("card0-Writeback-1", "Writeback", false), ("card12-VGA-3", "VGA", false),
    ])
    func connectorTypeComesFromTheName(name: String, type: String, isInternal: Bool) throws {
        let tree = FakeSysfsTree()
        tree.device("class/drm/" + name, ["status": "unknown"])
        let connector = try Self.connector(try DisplayReading.read(root: tree.root), name)
        #expect(connector.type == type)
        #expect(connector.isInternal == isInternal)
        #expect(connector.status == .unknown)
    }

    @Test func cardsRenderNodesAndVersionAreNotConnectors() throws {
        let tree = FakeSysfsTree()
        for name in ["card0", "renderD128", "cardX-DP-1", "card0-"] { tree.makeDirectory("class/drm/" + name) }
        tree.write("class/drm/version", "drm 1.1.0 20060810\n")
        tree.device("class/drm/card0-DP-1", ["status": "disconnected"])
        #expect(try DisplayReading.read(root: tree.root).connectors.map(\.name) == ["card0-DP-1"])
    }

    @Test(arguments: [
        "monitor-dell-u2719d-dp-cta.bin", "tv-lg-hdmi-doubled-512.bin", "monitor-lg-ultrafine-tiled-displayid.bin",
    ])
    func realEDIDsAreDecodedFromTheAttribute(file: String) throws {
        let bytes = try #require(Fixtures.edid(file))
        let tree = FakeSysfsTree()
        tree.device("class/drm/card0-DP-1", ["status": "connected"])
        tree.write("class/drm/card0-DP-1/edid", bytes: bytes)
        let connector = try Self.connector(try DisplayReading.read(root: tree.root), "card0-DP-1")
        #expect(connector.edid == (try EDID.decode(bytes)))
        #expect(connector.notes.isEmpty)
    }

    /// The edid attribute in each hostile form: the connector is still read, with a note naming the file.
    static func hostileEDID(_ tree: FakeSysfsTree, _ form: String) throws {
        let path = tree.root + "/class/drm/card0-DP-1/edid"
        switch form {
        case "fifo": try #require(mkfifo(path, 0o600) == 0)
        case "device": tree.link("class/drm/card0-DP-1/edid", to: "/dev/zero")
        case "directory": tree.makeDirectory("class/drm/card0-DP-1/edid")
        case "dangling link": tree.link("class/drm/card0-DP-1/edid", to: tree.root + "/nowhere")
        case "beyond the bound": tree.write("class/drm/card0-DP-1/edid", bytes: [UInt8](repeating: 0, count: 40000))
        case "truncated":
            let bytes = try #require(Fixtures.edid("monitor-dell-u2719d-dp-cta.bin"))
            tree.write("class/drm/card0-DP-1/edid", bytes: Array(bytes.prefix(100)))
        case "wrong checksum":
            var bytes = try #require(Fixtures.edid("monitor-dell-u2719d-dp-cta.bin"))
            bytes[20] ^= 0x01
            tree.write("class/drm/card0-DP-1/edid", bytes: bytes)
        default: Issue.record("no form \(form)")
        }
    }

    /// Each hostile form of `edid` and what its note must say (`nil`: no note).
    static let hostileForms: [(String, String?)] = [
        ("fifo", "an attribute file"), ("device", "an attribute file"), ("directory", "an attribute file"),
        ("dangling link", nil), ("beyond the bound", "32768"), ("truncated", "truncated: 100 bytes"),
        ("wrong checksum", "checksum is wrong"),
    ]

    @Test(arguments: hostileForms)
    func aHostileEDIDHidesOnlyItself(form: String, note: String?) throws {
        let tree = FakeSysfsTree()
        tree.device("class/drm/card0-DP-1", ["status": "connected", "modes": "2560x1440"])
        tree.device("class/drm/card0-DP-2", ["status": "disconnected"])
        try Self.hostileEDID(tree, form)
        let reading = try DisplayReading.read(root: tree.root)
        #expect(reading.connectors.count == 2)
        let connector = try Self.connector(reading, "card0-DP-1")
        #expect(connector.edid == nil)
        #expect(connector.status == .connected && connector.modes == ["2560x1440"])
        if let note {
            #expect(connector.notes.count == 1)
            #expect(connector.notes.first?.contains(note) == true, "\(connector.notes)")
            #expect(connector.notes.first?.contains("card0-DP-1/edid") == true, "\(connector.notes)")
        } else {
            #expect(connector.notes.isEmpty, "a dangling link is no edid, as a missing attribute")
        }
    }

    @Test func aBadStatusOrEnabledIsNotedAndUnknown() throws {
        let tree = FakeSysfsTree()
        tree.device("class/drm/card0-DP-1", ["status": "maybe", "enabled": "\u{FFFD}"])
        tree.link("class/drm/card0-DP-1/dpms", to: "/dev/zero")
        let connector = try Self.connector(try DisplayReading.read(root: tree.root), "card0-DP-1")
        #expect(connector.status == .unknown && connector.isEnabled == nil && connector.dpms == nil)
        #expect(connector.notes.count == 3, "\(connector.notes)")
    }

    @Test func anOverlongModesListIsRefusedAndTheRestIsRead() throws {
        let tree = FakeSysfsTree()
        tree.device("class/drm/card0-DP-1", ["status": "connected"])
        tree.write("class/drm/card0-DP-1/modes", String(repeating: "1920x1080\n", count: 7000))
        tree.write("class/drm/card0-DP-1/edid", bytes: try #require(Fixtures.edid("monitor-dell-u2719d-dp-cta.bin")))
        let connector = try Self.connector(try DisplayReading.read(root: tree.root), "card0-DP-1")
        #expect(connector.modes.isEmpty)
        #expect(connector.notes.count == 1 && connector.notes.first?.contains("card0-DP-1/modes holds more") == true)
        #expect(connector.status == .connected && connector.edid?.name == "DELL U2719D")
    }

    @Test func aConnectorNamedInBytesThatAreNotUTF8IsRead() throws {
        let tree = FakeSysfsTree()
        tree.makeDirectory("class/drm")
        let name = Array("card0-".utf8) + [0xFF, 0xFE] + Array("-1".utf8)
        let directory = BytePathFiles.path(tree.root + "/class/drm", name)
        try #require(BytePathFiles.makeDirectory(directory))
        let status = BytePath(bytes: directory.bytes + Array("/status".utf8))
        let edid = BytePath(bytes: directory.bytes + Array("/edid".utf8))
        defer {
            BytePathFiles.remove(status)
            BytePathFiles.remove(edid)
            BytePathFiles.removeDirectory(directory)
        }
        try #require(BytePathFiles.write(status, "connected\n"))
        let dell = try #require(Fixtures.edid("monitor-dell-1907fp-dvi-edid13.bin"))
        try #require(BytePathFiles.write(edid, bytes: dell))
        let connector = try #require(try DisplayReading.read(root: tree.root).connectors.first)
        #expect(connector.card == "card0")
        #expect(connector.status == .connected)
        #expect(connector.edid?.name == "DELL 1907FP")
        #expect(connector.name == BytePath(bytes: name).description, "escaped like ls -b")
    }

    @Test func aConnectorEntryThatIsAFileOrALoopIsAProblem() throws {
        let tree = FakeSysfsTree()
        tree.device("class/drm/card0-DP-1", ["status": "connected"])
        tree.write("class/drm/card0-DP-2", "not a directory\n")
        tree.link("class/drm/card0-DP-3", to: "card0-DP-3")
        tree.link("class/drm/card0-DP-4", to: tree.root + "/gone")
        let reading = try DisplayReading.read(root: tree.root)
        #expect(reading.connectors.map(\.name) == ["card0-DP-1"])
        #expect(reading.problems.count == 2, "\(reading.problems)")
    }

    @Test func noClassDirectoryIsNoConnectorsAndNoRootThrows() throws {
        let tree = FakeSysfsTree()
        #expect(try DisplayReading.read(root: tree.root).connectors.isEmpty)
        #expect(throws: SensorError.notFound(path: tree.root + "/missing")) {
            try DisplayReading.read(root: tree.root + "/missing")
        }
    }

    @Test func encodesAsJSONWithTheEDIDFields() throws {
        let machine = Self.laptop()
        let reading = try DisplayReading.read(root: machine.sys.root)
        let json = String(decoding: try JSONEncoder().encode(reading), as: UTF8.self)
        #expect(json.contains(#""manufacturer":"BOE""#))
        #expect(json.contains(#""status":"connected""#))
        #expect(json.contains(#""isInternal":true"#))
    }
}
