import Vigil

/// Scenarios 1 and 2: one subject, N immediate subscribers, each adding the value to its own counter.
func runFanoutImmediate(_ options: Options, _ report: Report) async {
    if options.includes("fanout.publish.immediate") {
        await runFanout("fanout.publish.immediate", options, report) { PublishSubject<Int>() }
    }
    if options.includes("fanout.behavior.immediate") {
        await runFanout("fanout.behavior.immediate", options, report) { BehaviorSubject(0) }
    }
}

private func runFanout<Subject: IntPublisher>(
    _ scenario: String, _ options: Options, _ report: Report, makeSubject: () -> Subject
) async {
    do {
        for subscribers in [1, 10, 100, 1000] {
            let deliveries = options.scaled(20_000_000)
            let values = max(deliveries / subscribers, 1)
            let parameter = "N=\(subscribers)"

            let (baseline, limit) = measureFanoutBaselineAndLimit(
                scenario, parameter, subscribers: subscribers, values: values, options, report)

            let vigil = measureVigil(makeSubject(), subscribers: subscribers, values: values, rounds: options.rounds)
            report.add(
                scenario, parameter, "vigil", unit: "ns/delivery", vigil, baseline: baseline, limit: limit.samples)

            let streamValues = max(options.scaled(200_000) / subscribers, 1)
            let stream = await measureAsyncStream(
                subscribers: subscribers, values: streamValues, rounds: options.quick ? 1 : 3)
            report.add(
                scenario, parameter, "AsyncStream", unit: "ns/delivery", stream, baseline: baseline,
                limit: limit.samples)
        }
    }
}

private func measureVigil(_ subject: some IntPublisher, subscribers: Int, values: Int, rounds: Int) -> Samples {
    let counters = (0..<subscribers).map { _ in Counter() }
    let subscriptions = counters.map { counter in subject.subscribe { counter.value &+= $0 } }
    let samples = sample(rounds: rounds, operations: values * subscribers) {
        publishAll(subject, values: values)
    }
    blackHole(counters.reduce(0) { $0 &+ $1.value })
    subscriptions.forEach { $0.dispose() }
    return samples
}

/// The toolchain's alternative: one AsyncStream per subscriber, a producer yielding to every continuation, each
/// consumer a task; timed until every consumer has drained its stream.
func measureAsyncStream(subscribers: Int, values: Int, rounds: Int) async -> Samples {
    var samples: [Double] = []
    for round in 0...rounds {
        let elapsed = await asyncStreamRound(subscribers: subscribers, values: values)
        if round > 0 { samples.append(Double(elapsed) / Double(values * subscribers)) }
    }
    return Samples(values: samples)
}

private func asyncStreamRound(subscribers: Int, values: Int) async -> UInt64 {
    let pairs = (0..<subscribers).map { _ in AsyncStream.makeStream(of: Int.self) }
    let start = now()
    await withTaskGroup(of: Int.self) { group in
        for (stream, _) in pairs {
            group.addTask {
                var sum = 0
                for await value in stream { sum &+= value }
                return sum
            }
        }
        for value in 0..<values {
            for (_, continuation) in pairs { continuation.yield(value) }
        }
        for (_, continuation) in pairs { continuation.finish() }
        var total = 0
        for await sum in group { total &+= sum }
        blackHole(total)
    }
    return now() - start
}

/// Measures and reports the closure baseline and the limit of a fan-out of `values` to `subscribers` counters: the
/// rows every fan-out scenario compares its variants against.
func measureFanoutBaselineAndLimit(
    _ scenario: String, _ parameter: String, subscribers: Int, values: Int, _ options: Options, _ report: Report
) -> (baseline: Samples, limit: Limit) {
    let operations = values * subscribers
    let baselineCounters = (0..<subscribers).map { _ in Counter() }
    let closures = makeBaselineClosures(baselineCounters)
    let baseline = sample(rounds: options.rounds, operations: operations) {
        runBaseline(closures, values: values)
    }
    blackHole(baselineCounters.reduce(0) { $0 &+ $1.value })
    let sinks = (0..<subscribers).map { _ in Counter() }
    let limit = measureFanoutLimit(sinks, values: values, rounds: options.rounds)
    blackHole(sinks.reduce(0) { $0 &+ $1.value })
    report.add(scenario, parameter, "baseline", unit: "ns/delivery", baseline, baseline: baseline, limit: limit.samples)
    report.addLimit(scenario, parameter, unit: "ns/delivery", limit, baseline: baseline)
    return (baseline, limit)
}
