import Testing
import Vigil
import VigilSensors

/// One clause of the ``Source`` contract, as the conformance checker names it in what it reports.
package enum ConformanceClause: String, Sendable, CaseIterable {
    case availability = "availability without side effects"
    case promptStart = "a prompt start, readings beginning pending"
    case timestamps = "readings timestamped"
    case latest = "latest is the last reading"
    case refresh = "refresh() reads now"
    case updateInterval = "one update interval, validated"
    case doubleStart = "a concurrent double start claims once"
    case promptStop = "a prompt stop, nothing published after it"
    case release = "release stops and closes every descriptor"
    case recovery = "a vanished device gives unavailable and recovers"
    case inBand = "readings in-band, the subject never ends"
    case eventLoop = "runs on the event loop it is given"
}

/// A clause the source broke, and how.
package struct ConformanceViolation: Sendable, CustomStringConvertible {
    package let clause: ConformanceClause
    package let message: String

    package var description: String { "\(clause.rawValue): \(message)" }
}

/// Checks one source against the whole ``Source`` contract, as swift-collections' `checkCollection` checks a
/// collection: every clause on fresh sources made by `make`, each on a private event loop, and every violation
/// reported as an issue that names the source, the setting and the clause.
///
/// Blocking work (starting from many threads, waiting for readings) runs on a thread of its own, so the
/// cooperative pool stays free. The waits are bounded waits for a condition (a reading, a barrier on the source's
/// private loop), not fixed sleeps; that nothing is published after a stop is shown by the loop holding nothing of the
/// source any more, not by waiting.
///
/// - Parameters:
///   - name: The source, in messages (a catalog id).
///   - setting: Where it reads, and how to take that away.
///   - make: Makes a fresh source on the given loop, not started.
package func checkSourceConformance<S: Source>(
    _ name: String, in setting: ConformanceSetting, sourceLocation: SourceLocation = #_sourceLocation,
    make: @escaping @Sendable (EventLoop) throws -> S
) async {
    for violation in await sourceConformanceViolations(in: setting, make: make) {
        Issue.record("\(name) on \(setting.label) breaks “\(violation)”", sourceLocation: sourceLocation)
    }
}

/// The clauses of the ``Source`` contract that sources made by `make` break, in the order they were checked; what
/// ``checkSourceConformance(_:in:sourceLocation:make:)`` reports, for tests of the checker itself.
package func sourceConformanceViolations<S: Source>(
    in setting: ConformanceSetting, make: @escaping @Sendable (EventLoop) throws -> S
) async -> [ConformanceViolation] {
    await offThePool {
        let check = SourceConformanceCheck(setting: setting, make: make)
        check.run()
        return check.violations
    }
}
