import Dispatch
import Vigil

/// Scenario 3: N subscribers, each on its own serial queue; time until every subscriber has every value.
func runFanoutQueue(_ options: Options, _ report: Report) {
    let scenario = "fanout.queue"
    guard options.includes(scenario) else { return }
    let rounds = options.quick ? 1 : 3
    for subscribers in [1, 10, 100] {
        // 1 million publishes, capped at 10 million deliveries a round so N = 100 stays within the time budget.
        let publishes = options.scaled(min(1_000_000, 10_000_000 / subscribers))
        let parameter = "N=\(subscribers)"
        let baselineCounters = (0..<subscribers).map { _ in Counter() }
        let closures = makeBaselineClosures(baselineCounters)
        let baseline = sample(rounds: options.rounds, operations: publishes * subscribers) {
            runBaseline(closures, values: publishes)
        }
        // The limit is synchronous: a lower bound for delivery on other threads, not a figure it could reach.
        let sinks = (0..<subscribers).map { _ in Counter() }
        let limit = measureFanoutLimit(sinks, values: publishes, rounds: options.rounds)
        blackHole(sinks.reduce(0) { $0 &+ $1.value })
        report.add(
            scenario, parameter, "baseline", unit: "ns/delivery", baseline, baseline: baseline, limit: limit.samples)
        report.addLimit(scenario, parameter, unit: "ns/delivery", limit, baseline: baseline, note: "synchronous")

        let vigil = sampleTimed(rounds: rounds, operations: publishes * subscribers) {
            vigilQueueRound(subscribers: subscribers, publishes: publishes, buffer: .unbounded).elapsed
        }
        report.add(
            scenario, parameter, "vigil", unit: "ns/delivery", vigil, baseline: baseline, limit: limit.samples,
            note: "\(format(1000 / vigil.median)) M deliveries/s, \(publishes) publishes")

        let asyncPublishes = max(publishes / 10, 1)
        let dispatch = sampleTimed(rounds: rounds, operations: asyncPublishes * subscribers) {
            dispatchAsyncRound(subscribers: subscribers, publishes: asyncPublishes)
        }
        report.add(
            scenario, parameter, "DispatchQueue.async", unit: "ns/delivery", dispatch, baseline: baseline,
            limit: limit.samples,
            note: "one async per value")

        var seen: [Double] = []
        let latest = sampleTimed(rounds: rounds, operations: publishes) {
            let round = vigilQueueRound(subscribers: subscribers, publishes: publishes, buffer: .latest)
            seen.append(round.seenPerSubscriber)
            return round.elapsed
        }
        let averageSeen = seen.reduce(0, +) / Double(seen.count)
        report.add(
            scenario, parameter, "vigil buffer .latest", unit: "ns/publish", latest, baseline: baseline,
            note: "each subscriber saw \(Int(averageSeen)) of \(publishes) values")
    }
}

private func vigilQueueRound(subscribers: Int, publishes: Int, buffer: BufferPolicy) -> (
    elapsed: UInt64, seenPerSubscriber: Double
) {
    let subject = PublishSubject<Int>()
    let done = DispatchSemaphore(value: 0)
    let counters = (0..<subscribers).map { _ in Counter() }
    let last = publishes - 1
    let subscriptions = counters.enumerated().map { index, counter in
        subject.subscribe(on: .queue(DispatchQueue(label: "subscriber \(index)"), buffer: buffer)) { value in
            counter.value &+= 1
            if value == last { done.signal() }
        }
    }
    let start = now()
    publishAll(subject, values: publishes)
    for _ in 0..<subscribers { done.wait() }
    let elapsed = now() - start
    subscriptions.forEach { $0.dispose() }
    let seen = counters.reduce(0) { $0 + $1.value }
    return (elapsed, Double(seen) / Double(subscribers))
}

/// The reference: a bare `DispatchQueue.async` per value per subscriber.
private func dispatchAsyncRound(subscribers: Int, publishes: Int) -> UInt64 {
    let done = DispatchSemaphore(value: 0)
    let queues = (0..<subscribers).map { DispatchQueue(label: "async \($0)") }
    let counters = (0..<subscribers).map { _ in Counter() }
    let last = publishes - 1
    let start = now()
    for value in 0..<publishes {
        for index in 0..<subscribers {
            let counter = counters[index]
            queues[index].async {
                counter.value &+= 1
                if value == last { done.signal() }
            }
        }
    }
    for _ in 0..<subscribers { done.wait() }
    return now() - start
}
