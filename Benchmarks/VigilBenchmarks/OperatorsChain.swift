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
    report.add(
        scenario, "4 operators", "baseline", unit: "ns/value", baseline, baseline: baseline, note: "one fused closure")

    let subject = PublishSubject<Int>()
    let result = Counter()
    let subscription = subject.map { $0 &* 3 }
        .filter { $0 & 1 == 0 }
        .removeDuplicates()
        .scan(0) { $0 &+ $1 }
        .subscribe { result.value = $0 }
    let vigil = sample(rounds: options.rounds, operations: values) { publishAll(subject, values: values) }
    report.add(scenario, "4 operators", "vigil", unit: "ns/value", vigil, baseline: baseline)
    subscription.dispose()
    blackHole(result.value)
}

/// The same four steps written as one closure: the physical limit.
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
