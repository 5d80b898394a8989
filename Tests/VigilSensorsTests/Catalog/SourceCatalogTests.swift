import Testing
import VigilSensors
import VigilTestSupport

/// The catalog's list: every id `vigil` accepted before the catalog was public, once, in `vigil list` order.
@Suite(.timeLimit(.minutes(10))) struct SourceCatalogTests {
    /// The ids of the CLI's own list before it moved into `VigilSensors`, in its order, then the sources added since:
    /// the spec.
    static let cliIDs = [
        "files", "network", "devices", "wifi", "accelerometer", "gyroscope", "magnetometer", "light", "proximity",
        "barometer", "orientation", "compass", "attitude", "battery", "power", "thermal", "hwmon", "backlight",
        "displays", "cpu", "memory", "storage", "pressure", "clock", "device", "switches", "radios", "location",
        "sleep", "inventory", "reach",
    ]

    @Test func listsEveryIDTheToolAcceptedInItsOrder() {
        #expect(SourceCatalog.builtIn.map(\.id) == Self.cliIDs)
    }

    @Test func idsAreUnique() {
        let ids = SourceCatalog.builtIn.map(\.id)
        #expect(Set(ids).count == ids.count)
    }

    @Test func everyEntryHasAName() {
        for entry in SourceCatalog.builtIn { #expect(!entry.name.isEmpty, "\(entry.id)") }
        #expect(SourceCatalog.entry(id: "battery")?.name == "Battery (sysfs power_supply)")
    }

    @Test(arguments: cliIDs) func entryIsFoundByItsID(id: String) throws {
        let entry = try #require(SourceCatalog.entry(id: id))
        #expect(entry.id == id)
    }

    @Test(arguments: ["", "nosuchsource", "Battery", "cpu "]) func unknownIDGivesNil(id: String) {
        #expect(SourceCatalog.entry(id: id) == nil)
    }

    @Test func onlyFilesAndReachTakeAnArgument() {
        let arguments = SourceCatalog.builtIn.filter { $0.argumentName != nil }.map { "\($0.id) \($0.argumentName!)" }
        #expect(arguments == ["files PATH", "reach TARGET…"])
    }

    @Test func entryThatNeedsAnArgumentThrowsWithoutOne() throws {
        let files = try #require(SourceCatalog.entry(id: "files"))
        #expect(throws: SensorError.unavailable(source: "files", reason: "it needs the argument PATH")) {
            _ = try files.make(SourceCatalog.Options())
        }
    }

    @Test func entryThatTakesNoArgumentThrowsGivenOne() throws {
        let cpu = try #require(SourceCatalog.entry(id: "cpu"))
        #expect(throws: SensorError.unavailable(source: "cpu", reason: "it takes no argument, got \"/tmp\"")) {
            _ = try cpu.make(SourceCatalog.Options(), argument: "/tmp")
        }
    }

    @Test func madeSourceCarriesItsEntrysIDAndNameAndIsNotStarted() throws {
        let machine = FakeMachine.equipped()
        for entry in SourceCatalog.builtIn where entry.argumentName == nil {
            let source = try entry.make(machine.options)
            #expect(source.id == entry.id)
            #expect(source.name == entry.name)
            #expect(!source.isMonitoring, "\(entry.id)")
        }
    }
}
