import Synchronization

/// The machinery both subjects share: the lock around a ``SubjectStateMachine``, and what happens after the lock.
///
/// Publishes are serialized per subject by a drain loop: a publisher that finds nobody delivering becomes the
/// deliverer and delivers outside the lock; a publisher that finds a delivery in progress queues its event, and the
/// deliverer delivers it next. So every subscriber sees one order, callbacks never overlap, nothing recurses, and no
/// lock is held while user code runs. A publisher outside any Vigil delivery then waits, bounded and asleep, for its
/// event to be delivered (backpressure: a thread publishing without pause cannot trap the deliverer or grow the
/// queue without limit); one inside a delivery never waits, so subjects may feed each other from any thread.
@usableFromInline
final class SubjectEngine<Element: Sendable>: Sendable {
    @usableFromInline typealias Entry = SubjectEntry<Element>
    @usableFromInline typealias Machine = SubjectStateMachine<Element>

    @usableFromInline let state: FutexMutex<Machine>
    /// Counts disposals made while a delivery was in progress; a changed count makes the loop check each subscriber.
    /// Changed and, with a subscriber list, read under the lock, so a snapshot and its epoch always agree.
    @usableFromInline let disposals = Atomic<UInt>(0)
    /// The deliverer role and the rounds of callbacks, in one word: the low bits (``roleMask``) are ``idle``,
    /// ``delivering`` or ``deliveringWithPending`` (see ``DeliveryRole``); the rest count rounds ended (``oneRound``
    /// each), counted only by the role's holder, and in the same compare-and-swap that gives the role up when it ends
    /// a publish, so ``awaitCallbacks()`` can tell a round that ended from one a late thread says ended.
    @usableFromInline let deliveryState = Atomic<Int>(0)
    /// How many queued events the deliverers have processed: the event with ticket `t` is delivered once this
    /// reaches `t`.
    @usableFromInline let deliveredCount = Atomic<UInt>(0)
    /// Wakes the waiters after each round and whenever the deliverer gives up its role.
    @usableFromInline let progress = ProgressWord()
    /// Whether this subject relies on `membarrier(2)` (see ``CrossThreadFence``).
    @usableFromInline let asymmetric = CrossThreadFence.isAsymmetric
    /// The `onNext` of tombstones: one closure per subject, so disposing allocates nothing.
    @usableFromInline let ignoreValue: @Sendable (Element) -> Void

    @usableFromInline static var idle: Int { 0 }
    @usableFromInline static var delivering: Int { 1 }
    @usableFromInline static var deliveringWithPending: Int { 2 }
    @usableFromInline static var roleMask: Int { 3 }
    @usableFromInline static var oneRound: Int { 4 }

    /// How long a publisher outside any delivery waits for its queued event before it returns anyway.
    ///
    /// The bound only matters when the deliverer is itself blocked, for example on a lock the publisher holds.
    @usableFromInline static var publisherWaitLimit: Duration { .milliseconds(2) }
    /// How many events may wait ahead of an operator's feed before it waits inside a callback
    /// (see ``publishBackpressured(_:)``).
    @usableFromInline static var feedHighWater: UInt { 64 }

    @inlinable
    init(current: Element?, replaysAfterTermination: Bool = false) {
        state = FutexMutex(Machine(current: current, replaysAfterTermination: replaysAfterTermination))
        ignoreValue = { _ in }
    }

    // MARK: Publishing

    @inlinable
    func publish(_ value: Element) {
        carryOut(publishing(value), of: value)
    }

    /// The first half of a publish: records `value` under the lock and decides what to do after it.
    @inlinable
    func publishing(_ value: Element) -> Action {
        let thread = currentThreadID()
        return state.withLock { machine in
            snapshotting(machine.publish(value, thread: thread, role: self), machine)
        }
    }

    /// The commit of a `modify` step: publishes `value` as ``publishing(_:)`` does, unless another step took effect
    /// since the step read the value and `modifications`; then returns nil, and the step runs its body again.
    @inlinable
    func publishing(_ value: Element, ifModifications modifications: UInt) -> Action? {
        let thread = currentThreadID()
        return state.withLock { machine in
            guard machine.modifications == modifications else { return nil }
            machine.modifications &+= 1
            return snapshotting(machine.publish(value, thread: thread, role: self), machine)
        }
    }

    /// The second half of a publish, after the lock: deliver `value`, drain the queue, or wait for its delivery.
    ///
    /// Inside a `modify` body, postponed until the step is over (see ``ModifyScope``).
    @inlinable
    func carryOut(_ action: Action, of value: Element) {
        // The scope is checked in each case, not before the switch: see ``act(on:value:backpressured:)``.
        switch action {
        case .none: return
        case .queued(let ticket):
            if ModifyScope.isOpen { return postponeCarryingOut(action, of: value) }
            awaitDelivery(of: ticket)
        case .drain:
            if ModifyScope.isOpen { return postponeCarryingOut(action, of: value) }
            drainPending()
        case .deliver(let snapshot):
            if ModifyScope.isOpen { return postponeCarryingOut(action, of: value) }
            deliver(value, to: snapshot)
            endDelivery()
        }
    }

    @inlinable
    func terminate(_ completion: Completion) {
        let thread = currentThreadID()
        let action = state.withLock { machine in
            snapshotting(machine.terminate(completion, thread: thread, role: self), machine)
        }
        if case .none = action { return }
        if ModifyScope.isOpen { return ModifyScope.postpone { self.carryOutTermination(action, completion) } }
        carryOutTermination(action, completion)
    }

    /// Hands a publish's second half to the open modify scope; out of line, so the closure it builds stays out of
    /// the publish path (fan-out figures moved with the code layout of that path).
    @usableFromInline @inline(never)
    func postponeCarryingOut(_ action: Action, of value: Element) {
        ModifyScope.postpone { self.carryOut(action, of: value) }
    }

    /// The second half of ``terminate(_:)``, after the lock.
    @inlinable
    func carryOutTermination(_ action: Action, _ completion: Completion) {
        switch action {
        case .none: return
        case .queued(let ticket): awaitDelivery(of: ticket)
        case .drain: drainPending()
        case .deliver(let snapshot):
            finish(snapshot, with: completion)
            endDelivery()
        }
    }

    /// What a publisher does after the lock: the machine's action, with a snapshot that carries its epoch.
    @usableFromInline
    enum Action {
        case none
        case deliver(Snapshot)
        case queued(ticket: UInt)
        case drain
    }

    /// Pairs a `.deliver` with the disposal epoch; call under the lock.
    @inlinable
    func snapshotting(_ action: Machine.PublishAction, _ machine: Machine) -> Action {
        switch action {
        case .none: return .none
        case .deliver(let subscribers): return .deliver(takeSnapshot(of: subscribers))
        case .queued(let ticket): return .queued(ticket: ticket)
        case .drain: return .drain
        }
    }

    /// Waits, bounded and asleep, until the event with `ticket` was delivered; never inside a delivery, unless
    /// `evenInsideCallback` (see ``publishBackpressured(_:)``).
    @inlinable
    func awaitDelivery(of ticket: UInt, evenInsideCallback: Bool = false) {
        guard evenInsideCallback || !CallbackDepth.isInsideCallback else { return }
        let isDelivered = { self.deliveredCount.load(ordering: .acquiring) >= ticket }
        guard !progress.spin(until: isDelivered) else { return }
        let deadline = ContinuousClock.now.advanced(by: Self.publisherWaitLimit)
        progress.register(asymmetric: asymmetric)
        defer { progress.unregister() }
        _ = progress.sleep(until: isDelivered, deadline: deadline)
    }

    /// How many subscriptions are live: attached (or queued to attach) and not disposed.
    @inlinable
    var subscriberCount: Int {
        state.withLock { $0.subscriberCount }
    }

    /// Finishes the live subscribers when the subject itself is released; nobody can be publishing then.
    @inlinable
    func terminateOnRelease() {
        terminate(.finished)
    }

    // MARK: Subscribing

    @inlinable
    func subscribe(
        on delivery: Delivery,
        onNext: @escaping @Sendable (Element) -> Void,
        onCompletion: @escaping @Sendable (Completion) -> Void
    ) -> Subscription {
        let target = DeliveryTarget(delivery, onNext: onNext, onCompletion: onCompletion)
        let subscriber = Subscriber(engine: self, mailbox: target.mailbox)
        let entry = Entry(subscriber: subscriber, onNext: target.onNext, onCompletion: target.onCompletion)
        let thread = currentThreadID()
        let action = state.withLock { $0.attach(entry, thread: thread, role: self) }
        if case .attached = action { return subscriber.makeSubscription() }
        if ModifyScope.isOpen {
            // Postponed until the step is over; the caller may dispose the subscription meanwhile.
            ModifyScope.postpone { self.welcome(entry, as: action) }
        } else {
            // Nobody else holds the subscription yet, so nobody can dispose it during this call.
            welcome(entry, as: action)
        }
        return subscriber.makeSubscription()
    }

    /// The second half of ``subscribe(on:onNext:onCompletion:)``, after the lock: the terminal event or the replay.
    @inlinable
    func welcome(_ entry: Entry, as action: Machine.AttachAction) {
        switch action {
        case .terminated(let completion, let replay):
            guard !entry.subscriber.isDisposed else { return }
            CallbackDepth.delivering {
                if let replay { entry.onNext(replay) }
                entry.onCompletion(completion)
            }
        case .attached:
            break
        case .queued(let ticket):
            awaitDelivery(of: ticket)
        case .drain:
            drainPending()
        case .replay(let value):
            if !entry.subscriber.isDisposed { CallbackDepth.delivering { entry.onNext(value) } }
            endDelivery()
        }
    }

    // MARK: Disposing

    /// Marks a subscriber disposed and removes it, without waiting for anything.
    @inlinable
    func detach(_ subscriber: Subscriber<Element>) {
        let released = state.withLock { machine -> Machine.Released in
            let (released, disposed) = machine.detach(subscriber, ignoring: ignoreValue)
            if disposed && isDelivering { disposals.add(1, ordering: .sequentiallyConsistent) }
            return released
        }
        withExtendedLifetime(released) {}
    }

    /// Waits until the round of callbacks running on another thread, if any, has returned; after a detach.
    ///
    /// After the fence, only the round in progress can still call the detached subscriber. Its end moves the rounds
    /// of ``deliveryState``, which only the holder of the role moves, before or as it gives the role up. So the wait
    /// is over once the rounds moved past those read here, or nobody delivers.
    @inlinable
    func awaitCallbacks() {
        progress.register(asymmetric: asymmetric)
        defer { progress.unregister() }
        let seen = deliveryState.load(ordering: .acquiring)
        guard seen & Self.roleMask != Self.idle else { return }
        let deliverer = state.withLock { $0.deliveringThread }
        guard deliverer != currentThreadID() else { return }
        _ = progress.sleep(until: {
            let word = self.deliveryState.load(ordering: .acquiring)
            return word & Self.roleMask == Self.idle || word & ~Self.roleMask != seen & ~Self.roleMask
        })
    }
}
