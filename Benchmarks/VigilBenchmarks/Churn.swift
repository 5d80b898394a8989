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
        let limit = measureChurnLimit(others: others, pairs: pairs, rounds: options.rounds)
        report.add(scenario, parameter, "baseline", unit: "ns/pair", baseline, baseline: baseline, limit: limit.samples)
        report.addLimit(scenario, parameter, unit: "ns/pair", limit, baseline: baseline)

        let subject = PublishSubject<Int>()
        let present = (0..<others).map { _ in subject.subscribe { _ in } }
        let vigil = sample(rounds: options.rounds, operations: pairs) {
            subscribeAndDispose(subject, pairs: pairs)
        }
        report.add(scenario, parameter, "vigil", unit: "ns/pair", vigil, baseline: baseline, limit: limit.samples)
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

/// The limit of registering and removing a subscriber: appending an unretained reference and removing it again.
private func measureChurnLimit(others: Int, pairs: Int, rounds: Int) -> Limit {
    let counters = (0..<others + 1).map { _ in Counter() }
    var array = counters.dropLast().map { Unmanaged.passUnretained($0) }
    var contiguous = ContiguousArray(array)
    let extra = Unmanaged.passUnretained(counters[others])
    let limit = measureLimit(
        rounds: rounds, operations: pairs,
        forms: [
            ("Unmanaged array", { appendAndRemove(&array, extra, pairs: pairs) }),
            ("Unmanaged ContiguousArray", { appendAndRemove(&contiguous, extra, pairs: pairs) }),
        ])
    blackHole(array.count &+ contiguous.count)
    withExtendedLifetime(counters) {}
    return limit
}

/// Appends and removes through separate out-of-line calls, as subscribe and dispose are, so the optimizer cannot
/// fold one into the other.
@inline(never)
private func appendAndRemove<List: RangeReplaceableCollection & BidirectionalCollection>(
    _ list: inout List, _ element: List.Element, pairs: Int
) {
    for _ in 0..<pairs {
        register(&list, element)
        unregister(&list)
    }
}

@inline(never)
private func register<List: RangeReplaceableCollection>(_ list: inout List, _ element: List.Element) {
    list.append(element)
}

@inline(never)
private func unregister<List: RangeReplaceableCollection & BidirectionalCollection>(_ list: inout List) {
    list.removeLast()
}
