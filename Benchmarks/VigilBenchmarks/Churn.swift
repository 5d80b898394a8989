import Vigil

/// Scenario 5: subscribe+dispose pairs with 0 and 1,000 others present; 1,000 subscriptions into a bag, then
/// dropping the bag.
func runChurn(_ options: Options, _ report: Report) {
    let scenario = "subscription.churn"
    guard options.includes(scenario) else { return }
    let pairs = options.scaled(2_000_000)
    for others in [0, 1000] {
        let parameter = "others=\(others)"
        // The baseline: registering and removing a closure in a bare array.
        var closures = makeBaselineClosures((0..<others).map { _ in Counter() })
        let extra = makeBaselineClosures([Counter()])[0]
        let baseline = sample(rounds: options.rounds, operations: pairs) {
            for _ in 0..<pairs {
                closures.append(extra)
                closures.removeLast()
            }
        }
        blackHole(closures.count)
        report.add(scenario, parameter, "baseline", unit: "ns/pair", baseline, baseline: baseline)

        let subject = PublishSubject<Int>()
        let present = (0..<others).map { _ in subject.subscribe { _ in } }
        let vigil = sample(rounds: options.rounds, operations: pairs) {
            subscribeAndDispose(subject, pairs: pairs)
        }
        report.add(scenario, parameter, "vigil", unit: "ns/pair", vigil, baseline: baseline)
        present.forEach { $0.dispose() }
    }

    let bags = options.scaled(2000)
    let subject = PublishSubject<Int>()
    let bagged = sample(rounds: options.rounds, operations: bags * 1000) {
        for _ in 0..<bags { fillAndDropBag(subject) }
    }
    report.add(scenario, "bag of 1000", "vigil", unit: "ns/subscription", bagged)
}

@inline(never)
private func subscribeAndDispose(_ subject: PublishSubject<Int>, pairs: Int) {
    for _ in 0..<pairs {
        let subscription = subject.subscribe { _ in }
        subscription.dispose()
    }
}

@inline(never)
private func fillAndDropBag(_ subject: PublishSubject<Int>) {
    let bag = DisposeBag()
    for _ in 0..<1000 { subject.subscribe { _ in }.disposed(by: bag) }
}
