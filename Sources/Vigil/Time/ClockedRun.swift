import Dispatch
import Synchronization

extension Observable {
    /// A time-based operator: each subscription runs a copy of `machine` on `upstream`'s events (none for a timer
    /// source) and on the firings of the one timer it arms on `clock`.
    ///
    /// With a `queue`, upstream values and timer firings both pass through it, so an immediate subscriber is called
    /// on it (the `DispatchQueue` forms of `throttle` and `debounce`).
    static func clocked<Machine: ClockedStateMachine, TimeSource: Clock>(
        _ upstream: Observable<Machine.Input>?,
        machine: Machine,
        clock: TimeSource,
        tolerance: Duration?,
        queue: DispatchQueue? = nil
    ) -> Observable<Element> where Machine.Output == Element, TimeSource.Instant == Machine.Instant {
        lifting { target in
            let run = ClockedRun(target: target, machine: machine, clock: clock, tolerance: tolerance, queue: queue)
            run.start(upstream)
            return [run]
        }
    }
}

/// One subscription of a time-based operator.
///
/// Upstream events and timer firings are published into a private relay, whose drain loop serializes them: the
/// machine sees one event at a time, in one order, and its output reaches the subscriber from inside that loop, so
/// callbacks never overlap and no lock is held while they run. The timer is a task sleeping on the clock until the
/// deadline the machine asked for; it is cancelled when the machine re-arms or cancels it, when the operator ends,
/// and on dispose. With a queue, the timer is a block the queue runs at the deadline, dropped by its generation.
/// Ending or disposing also drops the subscriber's callbacks, so a subscription object kept after that keeps
/// nothing they capture.
final class ClockedRun<Machine: ClockedStateMachine, TimeSource: Clock>: Disposable
where TimeSource.Instant == Machine.Instant {
    private struct State: Sendable {
        var machine: Machine
        /// The subscriber's callbacks; nil once the run ended or was disposed.
        var target: DeliveryTarget<Machine.Output>?
        /// Advanced whenever the timer is re-armed or cancelled, so a firing already on its way is dropped.
        var generation = 0
        var isDone = false
    }

    private let clock: TimeSource
    private let tolerance: Duration?
    private let queue: DispatchQueue?
    /// The clock, when it is a test clock that follows timers.
    private let tracking: (any TimerTrackingClock)?
    private let relay = PublishSubject<ClockedEvent<Machine.Input>>()
    private let state: SerialBox<State>
    private let timer = TimerSlot()
    /// The relay subscription, which runs the machine; disposed first.
    private let delivery = UpstreamSet()
    private let upstream = UpstreamSet()
    /// Timeout's `other`, once switched to.
    private let fallback = UpstreamSet()
    private let closed = Atomic<Bool>(false)

    init(
        target: DeliveryTarget<Machine.Output>,
        machine: Machine,
        clock: TimeSource,
        tolerance: Duration?,
        queue: DispatchQueue?
    ) {
        self.clock = clock
        self.tolerance = tolerance
        self.queue = queue
        tracking = clock as? any TimerTrackingClock
        state = SerialBox(State(machine: machine, target: target))
    }

    /// Starts the machine, then subscribes to `source`.
    func start(_ source: Observable<Machine.Input>?) {
        delivery.add(relay.subscribe(on: .immediate, onNext: { [self] in handle($0) }, onCompletion: { _ in }))
        relay.publish(.start)
        guard let source else { return }
        let relay = relay
        upstream.add(
            source.subscribe(
                on: queue.map { Delivery.queue($0) } ?? .immediate,
                onNext: { relay.feed(.value($0)) },
                onCompletion: { [upstream = self.upstream] completion in
                    // The source ended: release its subscription now, not when the machine has seen the end.
                    upstream.dispose()
                    relay.feed(.completion(completion))
                }
            ))
    }

    /// Runs inside the relay's delivery: one event at a time.
    private func handle(_ event: ClockedEvent<Machine.Input>) {
        let now = clock.now
        typealias Decision = (ClockedStep<Machine.Output, Machine.Instant>, Int, DeliveryTarget<Machine.Output>)
        let decided = state.withValue { state -> Decision? in
            guard !state.isDone, let target = state.target else { return nil }
            if case .timer(let generation) = event, generation != state.generation { return nil }
            let step = state.machine.receive(event, now: now)
            switch step.timer {
            case .unchanged: break
            case .arm, .cancel: state.generation += 1
            }
            if step.completion != nil || step.fallback != nil { state.isDone = true }
            return (step, state.generation, target)
        }
        guard let (step, generation, target) = decided else { return }
        switch step.timer {
        case .unchanged: break
        case .arm(let deadline):
            if let queue {
                // On the queue itself, not in a task: a task needs a thread of Swift's concurrency pool, which
                // blocking code anywhere in the process can hold, and the timer would not fire until one came free.
                // Nothing cancels it: a firing no longer wanted is dropped by its generation.
                queue.asyncAfter(deadline: .now() + DispatchTimeInterval(now.duration(to: deadline))) { [weak relay] in
                    relay?.publish(.timer(generation: generation))
                }
            } else {
                timer.arm(sleeper(until: deadline, generation: generation))
            }
        case .cancel: timer.cancel()
        }
        for value in step.values {
            guard !isDisposed else { return }
            target.onNext(value)
        }
        if let other = step.fallback { switchTo(other) }
        if let completion = step.completion { finish(completion) }
    }

    /// A task that sleeps until `deadline`, then tells the machine, unless it was cancelled first.
    private func sleeper(until deadline: Machine.Instant, generation: Int) -> Task<Void, Never> {
        let clock = clock
        let tolerance = tolerance
        let relay = relay
        let tracking = tracking
        tracking?.timerArmed()
        return Task {
            do {
                if tracking != nil {
                    try await TimerTracking.$isTracked.withValue(true) {
                        try await clock.sleep(until: deadline, tolerance: tolerance)
                    }
                } else {
                    try await clock.sleep(until: deadline, tolerance: tolerance)
                }
            } catch {
                return
            }
            relay.publish(.timer(generation: generation))
            tracking?.timerSettled()
        }
    }

    /// Releases the upstream and the timer, and forwards `other` to the subscriber from now on.
    private func switchTo(_ other: Observable<Machine.Output>) {
        timer.close()
        upstream.dispose()
        fallback.add(
            other.subscribe(
                on: .immediate,
                onNext: { [self] value in
                    if let target = liveTarget { target.onNext(value) }
                },
                onCompletion: { [self] in finish($0) }
            ))
    }

    /// The subscriber's callbacks, unless the run was disposed.
    private var liveTarget: DeliveryTarget<Machine.Output>? {
        guard !isDisposed else { return nil }
        return state.withValue { $0.target }
    }

    private func finish(_ completion: Completion) {
        guard let target = liveTarget else { return }
        target.onCompletion(completion)
        dispose()
    }

    func dispose() {
        closed.store(true, ordering: .releasing)
        releaseTarget()
        delivery.dispose()
        timer.close()
        upstream.dispose()
        fallback.dispose()
    }

    func disposeAndWait() {
        closed.store(true, ordering: .releasing)
        releaseTarget()
        delivery.disposeAndWait()
        timer.close()
        upstream.disposeAndWait()
        fallback.disposeAndWait()
    }

    var isDisposed: Bool {
        closed.load(ordering: .acquiring)
    }

    /// Drops the subscriber's callbacks, released after the lock: releasing them may run deinit code.
    private func releaseTarget() {
        let released = state.withValue { state in
            defer { state.target = nil }
            return state.target
        }
        withExtendedLifetime(released) {}
    }
}
