import Vigil

/// Scenario 6: map → filter → removeDuplicates → scan on one subscriber.
func runOperatorsChain(_ options: Options, _ report: Report) {
    let scenario = "operators.chain"
    guard options.includes(scenario) else { return }
    let values = options.scaled(5_000_000)

    let counter = Counter()
    let fused = makeFusedChain(counter)
    let baseline = sample(rounds: options.rounds, operations: values) {
        for value in 0..<values { fused(value) }
    }
    blackHole(counter.value)
    let limit = measureChainLimit(values: values, rounds: options.rounds)
    report.add(
        scenario, "4 operators", "baseline", unit: "ns/value", baseline, baseline: baseline, limit: limit.samples,
        note: "one fused closure")
    report.addLimit(scenario, "4 operators", unit: "ns/value", limit, baseline: baseline, note: "the four steps fused")

    let subject = PublishSubject<Int>()
    let result = Counter()
    let subscription = subject.map { $0 &* 3 }
        .filter { $0 & 1 == 0 }
        .removeDuplicates()
        .scan(0) { $0 &+ $1 }
        .subscribe { result.value = $0 }
    let vigil = sample(rounds: options.rounds, operations: values) { publishAll(subject, values: values) }
    report.add(scenario, "4 operators", "vigil", unit: "ns/value", vigil, baseline: baseline, limit: limit.samples)
    subscription.dispose()
    blackHole(result.value)
}

/// The same four steps written as one closure: the closure baseline.
@inline(never)
private func makeFusedChain(_ counter: Counter) -> (Int) -> Void {
    var last: Int?
    var total = 0
    return { value in
        let mapped = value &* 3
        guard mapped & 1 == 0, mapped != last else { return }
        last = mapped
        total &+= mapped
        counter.value = total
    }
}

/// The four steps fused into a method of a final class: the limit forms call it with no closure in between.
private final class FusedChain: LimitSink {
    let counter = Counter()
    var last: Int?
    var total = 0

    @inline(never)
    func receive(_ value: Int) {
        let mapped = value &* 3
        guard mapped & 1 == 0, mapped != last else { return }
        last = mapped
        total &+= mapped
        counter.value = total
    }
}

/// The four steps fused into a mutating method of a struct held in a local: no object at all.
private struct FusedState {
    var last: Int?
    var total = 0
    var result = 0

    @inline(never)
    mutating func receive(_ value: Int) {
        let mapped = value &* 3
        guard mapped & 1 == 0, mapped != last else { return }
        last = mapped
        total &+= mapped
        result = total
    }
}

@inline(never)
private func runFusedState(values: Int) -> Int {
    var state = FusedState()
    for value in 0..<values { state.receive(value) }
    return state.result
}

/// The limit of the chain: the fused steps called directly, through `Unmanaged`, or on a local struct.
private func measureChainLimit(values: Int, rounds: Int) -> Limit {
    let chains = [FusedChain()]
    let unmanaged = chains.map { Unmanaged.passUnretained($0) }
    let limit = measureLimit(
        rounds: rounds, operations: values,
        forms: [
            ("final class", { runLimitArray(chains, values: values) }),
            ("Unmanaged", { runLimitUnmanaged(unmanaged, values: values) }),
            ("struct", { blackHole(runFusedState(values: values)) }),
        ])
    blackHole(chains[0].counter.value)
    return limit
}
