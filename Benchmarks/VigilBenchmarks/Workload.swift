import Vigil

/// The work every subscriber does in the fan-out scenarios: add the value to a counter of its own.
///
/// Benchmark-only `@unchecked Sendable`: each counter is touched by one subscriber, whose callbacks never overlap,
/// and read after the run has been joined.
final class Counter: @unchecked Sendable, LimitSink {
    var value = 0

    /// The same work as a subscriber's closure, as a method the limit rows call directly.
    @inline(never)
    func receive(_ value: Int) {
        self.value &+= value
    }
}

/// The baseline: a bare array of closures, each adding to its own counter, built out of line so the optimizer
/// cannot see through it.
@inline(never)
func makeBaselineClosures(_ counters: [Counter]) -> [(Int) -> Void] {
    counters.map { counter in { counter.value &+= $0 } }
}

/// The closure baseline: for each value, for each closure, call it (retaining and releasing each closure's context).
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

/// The physical limit of a scenario: its fastest form, and a note naming every form's median.
struct Limit {
    let samples: Samples
    let note: String
}

/// Measures each form of the same work and keeps the fastest (by median).
func measureLimit(rounds: Int, operations: Int, forms: [(name: String, body: () -> Void)]) -> Limit {
    var fastest: (name: String, samples: Samples)?
    var medians: [String] = []
    for form in forms {
        let samples = sample(rounds: rounds, operations: operations, form.body)
        medians.append("\(form.name) \(format(samples.median))")
        if fastest == nil || samples.median < fastest!.samples.median { fastest = (form.name, samples) }
    }
    return Limit(samples: fastest!.samples, note: "fastest of: " + medians.joined(separator: ", "))
}

/// A subscriber's work as a method on a final class, for the limit rows: called with no closure and no reference
/// counting.
protocol LimitSink: AnyObject {
    func receive(_ value: Int)
}

/// Limit form 1: an array of final-class sinks, each called through its `@inline(never)` method.
@inline(never)
func runLimitArray<Sink: LimitSink>(_ sinks: [Sink], values: Int) {
    for value in 0..<values {
        for sink in sinks { sink.receive(value) }
    }
}

/// Limit form 2: the same sinks held as `Unmanaged` references, borrowed for each call.
@inline(never)
func runLimitUnmanaged<Sink: LimitSink>(_ sinks: [Unmanaged<Sink>], values: Int) {
    for value in 0..<values {
        for sink in sinks { sink._withUnsafeGuaranteedRef { $0.receive(value) } }
    }
}

/// Limit form 3: the sinks through an unsafe buffer pointer, indexed.
@inline(never)
func runLimitBuffer<Sink: LimitSink>(_ sinks: UnsafeBufferPointer<Sink>, values: Int) {
    for value in 0..<values {
        for index in sinks.indices { sinks[index].receive(value) }
    }
}

/// The limit of synchronous fan-out of `values` values to `sinks`: the fastest of the three forms.
func measureFanoutLimit<Sink: LimitSink>(_ sinks: [Sink], values: Int, rounds: Int) -> Limit {
    let unmanaged = sinks.map { Unmanaged.passUnretained($0) }
    let limit = measureLimit(
        rounds: rounds, operations: values * sinks.count,
        forms: [
            ("sink array", { runLimitArray(sinks, values: values) }),
            ("Unmanaged", { runLimitUnmanaged(unmanaged, values: values) }),
            ("buffer pointer", { sinks.withUnsafeBufferPointer { runLimitBuffer($0, values: values) } }),
        ])
    withExtendedLifetime(sinks) {}
    return limit
}
