import Vigil

/// The work every subscriber does in the fan-out scenarios: add the value to a counter of its own.
///
/// Benchmark-only `@unchecked Sendable`: each counter is touched by one subscriber, whose callbacks never overlap,
/// and read after the run has been joined.
final class Counter: @unchecked Sendable {
    var value = 0
}

/// The baseline: a bare array of closures, each adding to its own counter, built out of line so the optimizer
/// cannot see through it.
@inline(never)
func makeBaselineClosures(_ counters: [Counter]) -> [(Int) -> Void] {
    counters.map { counter in { counter.value &+= $0 } }
}

/// The physical limit of synchronous fan-out: for each value, for each closure, call it.
@inline(never)
func runBaseline(_ closures: [(Int) -> Void], values: Int) {
    for value in 0..<values {
        for closure in closures { closure(value) }
    }
}

/// Something the fan-out scenarios can publish into.
protocol IntPublisher: ObservableType where Element == Int {
    func publish(_ value: Int)
}

extension PublishSubject: IntPublisher where Element == Int {}
extension BehaviorSubject: IntPublisher where Element == Int {}

@inline(never)
func publishAll<Subject: IntPublisher>(_ subject: Subject, values: Int) {
    for value in 0..<values { subject.publish(value) }
}
