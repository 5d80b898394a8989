/// The logic of one subscription of a time-based operator, as a value: an event in, a step out.
///
/// It never touches a clock, a task or a lock: ``ClockedRun`` feeds it one event at a time (so it needs no
/// synchronization of its own), reads the clock for it, and carries out the step it returns.
protocol ClockedStateMachine<Input, Output, Instant>: Sendable {
    associatedtype Input: Sendable
    associatedtype Output: Sendable
    associatedtype Instant: InstantProtocol where Instant.Duration == Duration

    /// Handles `event`, which happened at `now`, and says what to emit and what to do with the timer.
    mutating func receive(_ event: ClockedEvent<Input>, now: Instant) -> ClockedStep<Output, Instant>
}

/// What reaches a time-based operator's state machine, in one serialized order.
enum ClockedEvent<Input: Sendable>: Sendable {
    /// The subscription began (before the upstream one).
    case start
    /// The upstream delivered a value.
    case value(Input)
    /// The upstream ended.
    case completion(Completion)
    /// The timer the machine armed last has fired (the generation lets the run drop a stale firing).
    case timer(generation: Int)
}

/// What a time-based operator does after one event, in this order: the timer change, the values, the end.
struct ClockedStep<Output: Sendable, Instant: InstantProtocol>: Sendable {
    /// What to do with the operator's one timer.
    enum TimerChange: Sendable {
        case unchanged
        /// Replace any pending timer with one that fires at the deadline.
        case arm(Instant)
        /// Cancel the pending timer.
        case cancel
    }

    var timer: TimerChange = .unchanged
    var values: [Output] = []
    /// Ends the subscription after the values.
    var completion: Completion?
    /// Ends this machine's part after the values and hands the subscriber over to this stream (timeout's `other`).
    var fallback: Observable<Output>?

    static var none: Self { Self() }

    static func emit(_ value: Output) -> Self { Self(values: [value]) }

    static func arm(_ deadline: Instant) -> Self { Self(timer: .arm(deadline)) }

    static func end(_ completion: Completion) -> Self { Self(completion: completion) }
}
