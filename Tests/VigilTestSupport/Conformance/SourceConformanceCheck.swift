import Vigil
import VigilSensors

/// The clauses of ``checkSourceConformance(_:in:sourceLocation:make:)``, run one after the other on one thread, each
/// on fresh sources and a fresh private loop.
final class SourceConformanceCheck<S: Source> {
    let setting: ConformanceSetting
    let make: @Sendable (EventLoop) throws -> S
    private(set) var violations: [ConformanceViolation] = []

    /// How many times eight threads start a fresh source at once.
    static var concurrentRounds: Int { 10 }
    /// A start or a stop returns within this.
    static var promptLimit: Duration { .milliseconds(100) }

    init(setting: ConformanceSetting, make: @escaping @Sendable (EventLoop) throws -> S) {
        self.setting = setting
        self.make = make
    }

    func record(_ clause: ConformanceClause, _ message: String) {
        violations.append(ConformanceViolation(clause: clause, message: message))
    }

    /// Every clause, each on fresh sources.
    func run() {
        checkAvailabilityHasNoSideEffects()
        checkPromptStart()
        checkWhileRunning()
        checkConcurrentDoubleStart()
        checkPromptStop()
        checkRelease()
        checkOutageAndRecovery()
    }

    // MARK: - Fresh sources

    /// A fresh source on a fresh private loop, its readings logged; the source is stopped, both are dropped and the
    /// loop shut down after `body`.
    func withFreshSource(_ body: (S, ReadingLog<S.Reading>, EventLoopProbe) -> Void) {
        guard let probe = makeProbe() else { return }
        defer { probe.shutdown() }
        guard let source = makeSource(on: probe) else { return }
        quicken(source)
        let log = ReadingLog(source)
        body(source, log, probe)
        source.stopMonitoring()
        log.dispose()
    }

    func makeProbe() -> EventLoopProbe? {
        do {
            let probe = try EventLoopProbe()
            guard probe.epoll != nil else {
                record(.release, "the private event loop's epoll descriptor was not found in /proc/self/fdinfo")
                probe.shutdown()
                return nil
            }
            return probe
        } catch {
            record(.release, "the private event loop could not start: \(error)")
            return nil
        }
    }

    func makeSource(on probe: EventLoopProbe) -> S? {
        do {
            return try make(probe.loop)
        } catch {
            record(.promptStart, "making the source threw \(error)")
            return nil
        }
    }

    /// Sets a polled source's interval to 10 ms before it starts (the next start uses it), so a source whose first
    /// value needs two reads (CPU use) has one soon and the check stays short.
    func quicken(_ source: S) {
        guard source.updateInterval != nil else { return }
        do {
            try source.setUpdateInterval(.milliseconds(10))
        } catch {
            record(.updateInterval, "setting 10 ms on a stopped polled source threw \(error)")
        }
    }

    /// Starts `source`; a throw is a violation, since the check runs only where the source is available.
    func start(_ source: S, for clause: ConformanceClause) -> Bool {
        do {
            try source.startMonitoring()
            return true
        } catch {
            record(clause, "starting an available source threw \(error)")
            return false
        }
    }

    /// Whether the source keeps its latest reading as a state (a `BehaviorSubject`), not events.
    static func keepsState(_ source: some Source) -> Bool {
        if let catalog = source as? CatalogSource { return keepsState(catalog.source) }
        return source.readings is any StateReadings
    }

    /// Waits for the first reading that is not `pending` (a state source) and for the loop to finish what the start
    /// set off; false when none came in time.
    func settle(_ source: S, _ log: ReadingLog<S.Reading>, _ probe: EventLoopProbe, _ clause: ConformanceClause)
        -> Bool
    {
        if Self.keepsState(source) {
            let read = waitUntil(within: setting.readingTimeout) {
                log.entries.contains { ReadingInspection.status(of: $0.reading) != .pending }
            }
            guard read else {
                record(clause, "no reading but pending within \(setting.readingTimeout) s of the start")
                return false
            }
        }
        probe.barrier()
        probe.barrier()
        return true
    }
}

/// A subject that keeps the latest reading as a state: the readings of a state source.
package protocol StateReadings {}

extension BehaviorSubject: StateReadings {}
