import Synchronization

/// The machinery both subjects share: the subscriber list, the serialized delivery loop, and termination.
///
/// Publishes are serialized per subject by a drain loop: a publisher that finds nobody delivering becomes the
/// deliverer and delivers outside the lock; a publisher that finds a delivery in progress (on another thread, or
/// from inside a callback) queues its event and returns, and the deliverer delivers it next. So every subscriber
/// sees one order, callbacks never overlap, nothing recurses, and no lock is held while user code runs.
@usableFromInline
final class SubjectEngine<Element: Sendable>: Sendable {
    /// One subscriber as the delivery loop sees it: its subscriber and the functions to call.
    ///
    /// The closures live here, so removing the entry from the list (dispose, termination) releases them.
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline let subscriber: Subscriber<Element>
        /// The user's closure for immediate delivery; the mailbox's push for queue delivery.
        @usableFromInline let onNext: @Sendable (Element) -> Void
        /// The user's closure for immediate delivery; the mailbox's completion for queue delivery.
        @usableFromInline let onCompletion: @Sendable (Completion) -> Void

        @inlinable
        init(
            subscriber: Subscriber<Element>,
            onNext: @escaping @Sendable (Element) -> Void,
            onCompletion: @escaping @Sendable (Completion) -> Void
        ) {
            self.subscriber = subscriber
            self.onNext = onNext
            self.onCompletion = onCompletion
        }

        /// What a disposed entry becomes until the list is compacted: same subscriber, closures that do nothing.
        @inlinable
        func tombstone(ignoring: @escaping @Sendable (Element) -> Void) -> Entry {
            Entry(subscriber: subscriber, onNext: ignoring, onCompletion: { _ in })
        }

        /// Delivers the terminal event, unless the subscriber was disposed.
        @inlinable
        func finish(_ completion: Completion) {
            guard !subscriber.isDisposed else { return }
            onCompletion(completion)
        }
    }

    @usableFromInline
    enum Event: Sendable {
        case value(Element)
        case attach(Entry, replay: Element?)
        case terminate(Completion)
    }

    @usableFromInline
    struct State: Sendable {
        /// Live entries in subscription order, with tombstones of disposed ones until the next compaction.
        @usableFromInline var subscribers: ContiguousArray<Entry> = []
        /// How many tombstones `subscribers` holds.
        @usableFromInline var tombstones = 0
        @usableFromInline var pending = PendingQueue<Event>()
        /// The thread that last claimed delivery; meaningful while ``SubjectEngine/deliveryState`` is not idle.
        @usableFromInline var deliveringThread: UInt = 0
        /// How many events were ever queued; an event's ticket is this count right after it was queued.
        @usableFromInline var enqueuedCount: UInt = 0
        /// The terminal event, once `complete`/`fail` was called (it may still be queued for delivery).
        @usableFromInline var terminal: Completion?
        /// The cached value, for a behavior subject; nil for a publish subject.
        @usableFromInline var current: Element?

        @inlinable
        init(current: Element?) {
            self.current = current
        }
    }

    @usableFromInline let state: Mutex<State>
    /// The subscriber whose callback the deliverer is deciding on or running (0 when none).
    @usableFromInline let activeSubscriber = Atomic<UInt>(0)
    /// Counts disposals made while a delivery was in progress; a changed count makes the loop check each subscriber.
    /// Changed and, with a subscriber list, read under the lock, so a snapshot and its epoch always agree.
    @usableFromInline let disposals = Atomic<UInt>(0)
    /// Who delivers: ``idle``, ``delivering``, or ``deliveringWithPending`` (events were queued meanwhile).
    ///
    /// Claimed and queued-to under the lock; the deliverer gives it up with one compare-and-swap outside the lock
    /// when nothing was queued, which saves a second lock round trip on every uncontended publish.
    @usableFromInline let deliveryState = Atomic<Int>(SubjectEngine.idle)

    /// How many queued events the deliverers have processed, in queue order: the event with ticket `t` has been
    /// delivered once this reaches `t`.
    @usableFromInline let deliveredCount = Atomic<UInt>(0)

    @usableFromInline static var idle: Int { 0 }
    @usableFromInline static var delivering: Int { 1 }
    @usableFromInline static var deliveringWithPending: Int { 2 }

    /// The `onNext` of tombstones: one closure per subject, so disposing allocates nothing.
    @usableFromInline let ignoreValue: @Sendable (Element) -> Void

    @inlinable
    init(current: Element?) {
        state = Mutex(State(current: current))
        ignoreValue = { _ in }
    }

    // MARK: Publishing

    @inlinable
    func publish(_ value: Element) {
        let claim = state.withLock { state -> Claim in
            guard state.terminal == nil else { return .none }
            // Only a behavior subject has a current value (`Optional.some` even when Element is itself optional).
            if state.current != nil { state.current = value }
            guard claimDelivery(&state) else { return enqueue(.value(value), &state) }
            return .deliver(takeSnapshot(of: state.subscribers))
        }
        carryOut(claim) { deliver(value, to: $0) }
    }

    @inlinable
    func terminate(_ completion: Completion) {
        let claim = state.withLock { state -> Claim in
            guard state.terminal == nil else { return .none }
            state.terminal = completion
            guard claimDelivery(&state) else { return enqueue(.terminate(completion), &state) }
            defer { state.subscribers = [] }
            return .deliver(takeSnapshot(of: state.subscribers))
        }
        carryOut(claim) { finish($0, with: completion) }
    }

    /// Acts on what was decided under the lock: wait for a queued event, drain the queue, or deliver and give up
    /// the deliverer role.
    @inlinable
    func carryOut(_ claim: Claim, delivering deliverSnapshot: (Snapshot) -> Void) {
        switch claim {
        case .none:
            return
        case .queued(let ticket, let mayWait):
            if mayWait { awaitDelivery(of: ticket) }
        case .drain:
            drainPending()
        case .deliver(let snapshot):
            deliverSnapshot(snapshot)
            endDelivery()
        }
    }

    /// What a publisher does after deciding under the lock.
    @usableFromInline
    enum Claim {
        /// Nothing: the subject has terminated.
        case none
        /// The deliverer will deliver the queued event; a publisher that is not the deliverer (not inside one of
        /// this subject's callbacks) waits for it, so a thread that publishes without pause cannot keep another one
        /// delivering its values forever.
        case queued(ticket: UInt, mayWait: Bool)
        /// Deliver what is queued: this thread became the deliverer after queueing.
        case drain
        /// Deliver to this snapshot: this thread is the deliverer.
        case deliver(Snapshot)
    }

    /// Becomes the deliverer if nobody is delivering; call under the lock.
    @inlinable
    func claimDelivery(_ state: inout State) -> Bool {
        guard deliveryState.load(ordering: .acquiring) == Self.idle else { return false }
        deliveryState.store(Self.delivering, ordering: .relaxed)
        state.deliveringThread = currentThreadID()
        return true
    }

    /// Queues an event for the deliverer; call under the lock, after ``claimDelivery(_:)`` failed.
    ///
    /// If the deliverer gave up in between, this thread becomes the deliverer and must drain the queue.
    @inlinable
    func enqueue(_ event: Event, _ state: inout State) -> Claim {
        state.pending.append(event)
        state.enqueuedCount &+= 1
        let (marked, found) = deliveryState.compareExchange(
            expected: Self.delivering, desired: Self.deliveringWithPending, ordering: .acquiringAndReleasing)
        guard !marked, found == Self.idle else {
            return .queued(ticket: state.enqueuedCount, mayWait: state.deliveringThread != currentThreadID())
        }
        deliveryState.store(Self.delivering, ordering: .relaxed)
        state.deliveringThread = currentThreadID()
        return .drain
    }

    /// Waits until the event with `ticket` has been delivered, for at most a few milliseconds.
    ///
    /// The bound keeps publishers that feed each other from inside callbacks on different threads from
    /// deadlocking: after it, the publisher returns and its event is delivered in turn anyway.
    @usableFromInline
    func awaitDelivery(of ticket: UInt) {
        CrossThreadFence.wait(atMost: .milliseconds(5)) { deliveredCount.load(ordering: .acquiring) >= ticket }
    }

    /// Gives up delivery with one compare-and-swap when nothing was queued; otherwise drains the queue.
    @inlinable
    func endDelivery() {
        let (released, _) = deliveryState.compareExchange(
            expected: Self.delivering, desired: Self.idle, ordering: .acquiringAndReleasing)
        if !released { drainPending() }
    }

    /// Finishes the live subscribers when the subject itself is released; nobody can be delivering then.
    @inlinable
    func terminateOnRelease() {
        let subscribers = state.withLock { state -> ContiguousArray<Entry> in
            guard state.terminal == nil else { return [] }
            state.terminal = .finished
            defer { state.subscribers = [] }
            return state.subscribers
        }
        for entry in subscribers { entry.finish(.finished) }
    }

    // MARK: Subscribing

    @inlinable
    func subscribe(
        on delivery: Delivery,
        onNext: @escaping @Sendable (Element) -> Void,
        onCompletion: @escaping @Sendable (Completion) -> Void
    ) -> Subscription {
        let entry: Entry
        switch delivery {
        case .immediate:
            entry = Entry(
                subscriber: Subscriber(engine: self, mailbox: nil), onNext: onNext, onCompletion: onCompletion)
        case .queue(let queue, let buffer):
            let mailbox = Mailbox(queue: queue, policy: buffer, onNext: onNext, onCompletion: onCompletion)
            entry = Entry(
                subscriber: Subscriber(engine: self, mailbox: mailbox),
                onNext: { mailbox.push($0) },
                onCompletion: { mailbox.complete($0) }
            )
        }
        let action = state.withLock { state -> AttachAction in
            if let terminal = state.terminal { return .terminated(terminal) }
            if deliveryState.load(ordering: .acquiring) != Self.idle {
                switch enqueue(.attach(entry, replay: state.current), &state) {
                case .queued(let ticket, let mayWait): return .queued(ticket: ticket, mayWait: mayWait)
                default: return .drain
                }
            }
            append(entry, to: &state)
            guard let current = state.current else { return .attached }
            // Replaying outside the lock: become the deliverer, so values published meanwhile queue up behind it.
            _ = claimDelivery(&state)
            return .replay(current)
        }
        switch action {
        case .terminated(let completion):
            entry.finish(completion)
        case .attached:
            break
        case .queued(let ticket, let mayWait):
            if mayWait { awaitDelivery(of: ticket) }
        case .drain:
            drainPending()
        case .replay(let value):
            // Nobody else holds the subscription yet, so nobody can dispose it during this call.
            entry.onNext(value)
            endDelivery()
        }
        let subscriber = entry.subscriber
        return Subscription(cancel: { subscriber.cancel() })
    }

    @usableFromInline
    enum AttachAction {
        case terminated(Completion)
        case queued(ticket: UInt, mayWait: Bool)
        case drain
        case attached
        case replay(Element)
    }

    // MARK: Disposing

    /// Removes a disposed subscriber; if a delivery on another thread may be calling it, waits until it is not.
    ///
    /// The entry becomes a tombstone in O(1) (its closures are released after the lock), and the list is compacted
    /// once tombstones outnumber live entries, so disposing many subscriptions in any order stays linear.
    @inlinable
    func detach(_ subscriber: Subscriber<Element>) {
        let identity = subscriber.identity
        let (released, deliveringElsewhere) = state.withLock { state -> (ContiguousArray<Entry>, Bool) in
            var released: ContiguousArray<Entry> = []
            let index = subscriber.index
            if state.subscribers.indices.contains(index), state.subscribers[index].subscriber === subscriber {
                if index == state.subscribers.count - 1 {
                    // The newest subscriber (the common case: churn, bags disposing newest first): just drop it,
                    // and any tombstones it uncovers.
                    released.append(state.subscribers.removeLast())
                    while let last = state.subscribers.last, last.subscriber.isDisposed, state.tombstones > 0 {
                        released.append(state.subscribers.removeLast())
                        state.tombstones -= 1
                    }
                } else {
                    released.append(state.subscribers[index])
                    state.subscribers[index] = state.subscribers[index].tombstone(ignoring: ignoreValue)
                    state.tombstones += 1
                    if state.tombstones > 16 && state.tombstones * 2 > state.subscribers.count {
                        released = compact(&state)
                    }
                }
            }
            guard deliveryState.load(ordering: .acquiring) != Self.idle else { return (released, false) }
            disposals.add(1, ordering: .sequentiallyConsistent)
            return (released, state.deliveringThread != currentThreadID())
        }
        withExtendedLifetime(released) {}
        guard deliveringElsewhere else { return }
        CrossThreadFence.synchronize()
        CrossThreadFence.wait { activeSubscriber.load(ordering: .acquiring) != identity }
    }

    /// Appends a live entry and records its index; call under the lock.
    @inlinable
    func append(_ entry: Entry, to state: inout State) {
        entry.subscriber.index = state.subscribers.count
        state.subscribers.append(entry)
    }

    /// Drops the tombstones (and entries disposed but not yet detached) and renumbers the live entries; call under
    /// the lock. Returns the old list, for the caller to release after the lock.
    @inlinable
    func compact(_ state: inout State) -> ContiguousArray<Entry> {
        let old = state.subscribers
        state.subscribers = old.filter { !$0.subscriber.isDisposed }
        for (index, entry) in state.subscribers.enumerated() { entry.subscriber.index = index }
        state.tombstones = 0
        return old
    }

    // MARK: The delivery loop

    /// The subscribers a delivery goes to, with the disposal count they were taken at.
    @usableFromInline
    struct Snapshot {
        @usableFromInline let subscribers: ContiguousArray<Entry>
        @usableFromInline let epoch: UInt

        @inlinable
        init(subscribers: ContiguousArray<Entry>, epoch: UInt) {
            self.subscribers = subscribers
            self.epoch = epoch
        }
    }

    /// Takes a snapshot; call under the lock.
    @inlinable
    func takeSnapshot(of subscribers: ContiguousArray<Entry>) -> Snapshot {
        Snapshot(subscribers: subscribers, epoch: disposals.load(ordering: .relaxed))
    }

    @inlinable
    func deliver(_ value: Element, to snapshot: Snapshot) {
        let epoch = snapshot.epoch
        for entry in snapshot.subscribers {
            // Mark, then check: a disposer on another thread either makes this check fail or sees the mark and
            // waits for the callback (see CrossThreadFence).
            activeSubscriber.store(entry.subscriber.identity, ordering: .releasing)
            atomicMemoryFence(ordering: .acquiringAndReleasing)
            if disposals.load(ordering: .acquiring) != epoch, entry.subscriber.isDisposed {
                continue
            }
            entry.onNext(value)
        }
        activeSubscriber.store(0, ordering: .releasing)
    }

    @inlinable
    func finish(_ snapshot: Snapshot, with completion: Completion) {
        for entry in snapshot.subscribers {
            activeSubscriber.store(entry.subscriber.identity, ordering: .releasing)
            atomicMemoryFence(ordering: .acquiringAndReleasing)
            entry.finish(completion)
        }
        activeSubscriber.store(0, ordering: .releasing)
    }

    /// Delivers queued events until none is left, then gives up the deliverer role.
    @inlinable
    func drainPending() {
        while true {
            let step = state.withLock { state -> DrainStep in
                guard let event = state.pending.popFirst() else {
                    deliveryState.store(Self.idle, ordering: .releasing)
                    return .done
                }
                switch event {
                case .value(let value):
                    return .deliver(value, takeSnapshot(of: state.subscribers))
                case .attach(let entry, let replay):
                    guard !entry.subscriber.isDisposed else { return .skip }
                    append(entry, to: &state)
                    guard let replay else { return .skip }
                    return .deliver(replay, takeSnapshot(of: [entry]))
                case .terminate(let completion):
                    defer {
                        state.subscribers = []
                        state.tombstones = 0
                    }
                    return .finish(completion, takeSnapshot(of: state.subscribers))
                }
            }
            switch step {
            case .done:
                return
            case .skip:
                break
            case .deliver(let value, let snapshot):
                deliver(value, to: snapshot)
            case .finish(let completion, let snapshot):
                finish(snapshot, with: completion)
            }
            deliveredCount.add(1, ordering: .releasing)
        }
    }

    @usableFromInline
    enum DrainStep {
        case done
        case skip
        case deliver(Element, Snapshot)
        case finish(Completion, Snapshot)
    }
}
