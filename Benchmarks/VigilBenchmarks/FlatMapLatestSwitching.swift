import Vigil

/// Scenario 12: `flatMapLatest` switching: every outer value switches to a new inner stream, which delivers one value
/// (`Observable.just`) or `run` values published into it before the next switch.
func runFlatMapLatestSwitching(_ options: Options, _ report: Report) {
    let scenario = "flatMapLatest.switching"
    guard options.includes(scenario) else { return }
    for run in [1, 100] {
        let values = options.scaled(run == 1 ? 500_000 : 5_000_000)
        let switches = max(values / run, 1)
        let operations = switches * run
        let parameter = run == 1 ? "switch per value" : "switch per \(run) values"

        let counter = Counter()
        let baseline = sample(rounds: options.rounds, operations: operations) {
            runSwitchingBaseline(counter, switches: switches, run: run)
        }
        blackHole(counter.value)
        let sink = SwitchingSink()
        let limit = measureLimit(
            rounds: options.rounds, operations: operations,
            forms: [("final class", { runSwitchingLimit(sink, switches: switches, run: run) })])
        blackHole(sink.total)
        report.add(
            scenario, parameter, "baseline", unit: "ns/value", baseline, baseline: baseline, limit: limit.samples,
            note: "a new closure per switch, called for each value")
        report.addLimit(
            scenario, parameter, unit: "ns/value", limit, baseline: baseline, note: "a generation counter per switch")

        let vigil = measureSwitching(switches: switches, run: run, rounds: options.rounds)
        report.add(scenario, parameter, "vigil", unit: "ns/value", vigil, baseline: baseline, limit: limit.samples)
    }
}

private func measureSwitching(switches: Int, run: Int, rounds: Int) -> Samples {
    let outer = PublishSubject<Int>()
    let inner = PublishSubject<Int>()
    let result = Counter()
    let switched =
        run == 1 ? outer.flatMapLatest { Observable.just($0) } : outer.flatMapLatest { _ in inner.asObservable() }
    let subscription = switched.subscribe { result.value &+= $0 }
    let samples = sample(rounds: rounds, operations: switches * run) {
        for step in 0..<switches {
            outer.publish(step)
            if run > 1 { publishAll(inner, values: run) }
        }
    }
    subscription.dispose()
    blackHole(result.value)
    return samples
}

/// The closure baseline: each switch makes a new closure (a new context), which receives the run's values.
@inline(never)
private func runSwitchingBaseline(_ counter: Counter, switches: Int, run: Int) {
    var current: ((Int) -> Void)?
    for step in 0..<switches {
        let generation = step
        current = { counter.value &+= $0 &+ generation }
        for value in 0..<run { callOpaquely(current, value) }
    }
}

/// Calls `closure` where the optimizer cannot see which closure it is: without this, a run of 100 values through a
/// closure made in the same loop was folded into one addition (0.03 ns per value).
@inline(never)
private func callOpaquely(_ closure: ((Int) -> Void)?, _ value: Int) {
    closure?(value)
}

/// The limit: a switch is a new generation in a final class, each value a direct call.
private final class SwitchingSink {
    var generation = 0
    var total = 0

    @inline(never)
    func switchTo(_ generation: Int) {
        self.generation = generation
    }

    @inline(never)
    func receive(_ value: Int) {
        total &+= value &+ generation
    }
}

@inline(never)
private func runSwitchingLimit(_ sink: SwitchingSink, switches: Int, run: Int) {
    for step in 0..<switches {
        sink.switchTo(step)
        for value in 0..<run { sink.receive(value) }
    }
}
