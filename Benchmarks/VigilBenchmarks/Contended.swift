import Dispatch
import Vigil

/// Scenario 4: two threads publishing into one subject with 10 subscribers, each checking per-publisher order.
func runContended(_ options: Options, _ report: Report) {
    let scenario = "fanout.contended"
    guard options.includes(scenario) else { return }
    let subscribers = 10
    let perThread = options.scaled(1_000_000)
    let operations = 2 * perThread * subscribers

    let baselineCounters = (0..<subscribers).map { _ in Counter() }
    let closures = makeBaselineClosures(baselineCounters)
    let baseline = sample(rounds: options.rounds, operations: operations) {
        runBaseline(closures, values: 2 * perThread)
    }
    // The limit: the same order checks, called serially (a subscriber's callbacks never overlap, so two publishers
    // cannot deliver faster than one thread doing all the calls) with no lock and no reference counting.
    let limitCheckers = (0..<subscribers).map { _ in OrderChecker() }
    let limit = measureFanoutLimit(limitCheckers, values: 2 * perThread, rounds: options.rounds)
    blackHole(limitCheckers.reduce(0) { $0 &+ $1.count &+ $1.violations })
    report.add(scenario, "N=10", "baseline", unit: "ns/delivery", baseline, baseline: baseline, limit: limit.samples)
    report.addLimit(scenario, "N=10", unit: "ns/delivery", limit, baseline: baseline, note: "one thread, order checks")

    var violations = 0
    let single = sampleTimed(rounds: options.rounds, operations: operations) {
        let round = contendedRound(threads: 1, perThread: 2 * perThread, subscribers: subscribers)
        violations += round.violations
        return round.elapsed
    }
    report.add(
        scenario, "N=10", "vigil 1 thread", unit: "ns/delivery", single, baseline: baseline, limit: limit.samples,
        note: "\(format(1000 / single.median)) M deliveries/s")
    let contended = sampleTimed(rounds: options.rounds, operations: operations) {
        let round = contendedRound(threads: 2, perThread: perThread, subscribers: subscribers)
        violations += round.violations
        return round.elapsed
    }
    report.add(
        scenario, "N=10", "vigil 2 threads", unit: "ns/delivery", contended, baseline: baseline, limit: limit.samples,
        note:
            "\(format(1000 / contended.median)) M deliveries/s, \(format(single.median / contended.median))× the "
            + "single-thread throughput, order violations: \(violations)")
    if violations > 0 { print("ORDER VIOLATED: \(violations) out-of-order deliveries") }
}

/// Checks that each publisher's values reach this subscriber in the order published.
///
/// Benchmark-only `@unchecked Sendable`: a subscriber's callbacks never overlap, and the fields are read after the
/// publishing threads have been joined.
private final class OrderChecker: @unchecked Sendable, LimitSink {
    /// The last sequence number seen from publisher 0 and from publisher 1 (two fields, not an array, so a check
    /// costs no copy-on-write test).
    var lastSequence0 = -1
    var lastSequence1 = -1
    var violations = 0
    var count = 0

    @inline(never)
    func receive(_ value: Int) {
        let sequence = value & 0xFFFF_FFFF
        if value >> 32 == 0 {
            if sequence <= lastSequence0 { violations += 1 }
            lastSequence0 = sequence
        } else {
            if sequence <= lastSequence1 { violations += 1 }
            lastSequence1 = sequence
        }
        count += 1
    }
}

private func contendedRound(threads: Int, perThread: Int, subscribers: Int) -> (elapsed: UInt64, violations: Int) {
    let subject = PublishSubject<Int>()
    let checkers = (0..<subscribers).map { _ in OrderChecker() }
    let subscriptions = checkers.map { checker in subject.subscribe { checker.receive($0) } }
    let start = now()
    onThreads(threads) { thread in
        for sequence in 0..<perThread { subject.publish(thread << 32 | sequence) }
    }
    let elapsed = now() - start
    subscriptions.forEach { $0.dispose() }
    let lost = checkers.reduce(0) { $0 + (threads * perThread - $1.count) }
    return (elapsed, checkers.reduce(0) { $0 + $1.violations } + lost)
}
