import Testing
import VigilSensors
import VigilTestSupport

/// The `inventory` fuzz corpus replayed through the parsers its fuzzer feeds, each input with what it must give;
/// `Fuzz/run.sh inventory` is where random bytes go.
@Suite(.timeLimit(.minutes(10))) struct InventoryFuzzCorpusTests {
    static func text(_ name: String) throws -> String {
        String(decoding: try #require(FuzzCorpus.input("inventory", name)), as: UTF8.self)
    }

    @Test func everyCorpusInputHasAnExpectation() {
        #expect(FuzzCorpus.names("inventory") == ["asound-none", "asound-two-cards", "touchpad-bitmaps", "uevent"])
    }

    @Test func twoSoundCards() throws {
        let parsed = SoundCard.parseProcfs(try Self.text("asound-two-cards"))
        #expect(parsed.entries.map(\.id) == ["PCH", "Device"] && parsed.problems.isEmpty)
        #expect(parsed.entries.last?.longName?.hasSuffix("full speed") == true)
    }

    @Test func noSoundCards() throws {
        let parsed = SoundCard.parseProcfs(try Self.text("asound-none"))
        #expect(parsed.entries.isEmpty && parsed.problems.isEmpty)
    }

    @Test func aTouchpadsBitmaps() throws {
        let lines = try Self.text("touchpad-bitmaps").split(separator: "\n").map(String.init)
        let bitmaps = try lines.map { (line) throws(SensorError) in try CapabilityBitmap(text: line, path: "t")
        }
        let capabilities = InputCapabilities(
            events: bitmaps[0], keys: bitmaps[1], relativeAxes: bitmaps[2], absoluteAxes: bitmaps[3],
            switches: bitmaps[4], properties: bitmaps[5])
        #expect(capabilities.kind == .touchpad)
    }

    @Test func aUeventAttribute() throws {
        let properties = UeventFile.properties(try Self.text("uevent"))
        #expect(properties == ["MAJOR": "81", "MINOR": "0", "DEVNAME": "video0", "DEVTYPE": "wwan", "": ""])
    }
}
