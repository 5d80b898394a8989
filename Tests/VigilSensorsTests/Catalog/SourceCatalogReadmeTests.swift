import Testing
import Vigil
import VigilSensors
import VigilTestSupport

/// The README's "Built-in sources" example, kept compiling and running (on a fake machine instead of this one).
@Suite(.timeLimit(.minutes(10))) struct SourceCatalogReadmeTests {
    /// The README's code, with `options` passed in and what it makes returned.
    private func readmeExample(_ options: SourceCatalog.Options, _ bag: DisposeBag) throws -> (
        running: [CatalogSource], tmp: CatalogSource?
    ) {
        var running: [CatalogSource] = []
        for entry in SourceCatalog.builtIn where entry.argumentName == nil {
            let availability = entry.availability(options)
            guard availability.isAvailable else {
                print("\(entry.id): \(availability)")
                continue
            }
            let source = try entry.make(options)
            source.readings.subscribe { print("\(entry.id): \($0)") }.disposed(by: bag)
            try source.startMonitoring()
            running.append(source)
        }
        let tmp = try SourceCatalog.entry(id: "files")?.make(options, argument: "/tmp")
        return (running, tmp)
    }

    @Test func readmeExampleRuns() throws {
        let machine = FakeMachine.equipped()
        let bag = DisposeBag()
        let (running, tmp) = try readmeExample(machine.options, bag)
        defer { for source in running { source.stopMonitoring() } }
        #expect(running.map(\.id).contains("battery"))
        #expect(running.allSatisfy { $0.isMonitoring })
        #expect(tmp?.id == "files")
        #expect(tmp?.isMonitoring == false)
    }
}
