import Vigil

/// Scenario 11: one subject behind `share()` (and `share(replay: 1)`), N immediate subscribers each adding the value
/// to its own counter: what sharing adds to a plain subject's fan-out.
func runShareFanout(_ options: Options, _ report: Report) {
    let scenario = "share.fanout"
    guard options.includes(scenario) else { return }
    for subscribers in [1, 10, 100] {
        let deliveries = options.scaled(10_000_000)
        let values = max(deliveries / subscribers, 1)
        let parameter = "N=\(subscribers)"

        let (baseline, limit) = measureFanoutBaselineAndLimit(
            scenario, parameter, subscribers: subscribers, values: values, options, report)

        let forms: [(String, (PublishSubject<Int>) -> Observable<Int>)] = [
            ("vigil subject", { $0.asObservable() }),
            ("vigil share()", { $0.share() }),
            ("vigil share(replay: 1)", { $0.share(replay: 1) }),
        ]
        for (variant, makeShared) in forms {
            let subject = PublishSubject<Int>()
            let samples = measureSharedFanout(
                subject, makeShared(subject), subscribers: subscribers, values: values, rounds: options.rounds)
            report.add(
                scenario, parameter, variant, unit: "ns/delivery", samples, baseline: baseline, limit: limit.samples)
        }
    }
}

private func measureSharedFanout(
    _ subject: PublishSubject<Int>, _ shared: Observable<Int>, subscribers: Int, values: Int, rounds: Int
) -> Samples {
    let counters = (0..<subscribers).map { _ in Counter() }
    let subscriptions = counters.map { counter in shared.subscribe { counter.value &+= $0 } }
    let samples = sample(rounds: rounds, operations: values * subscribers) { publishAll(subject, values: values) }
    blackHole(counters.reduce(0) { $0 &+ $1.value })
    subscriptions.forEach { $0.dispose() }
    return samples
}
