/// The decisions of a subject, made under its lock: a value type that takes an event and returns what to do.
///
/// It keeps the subscriber list, the queue of events waiting for the deliverer, the terminal event and the cached
/// value. ``SubjectEngine`` holds it in its lock, asks it, releases the lock, and then acts: delivers a snapshot,
/// drains the queue, or waits for a queued event (the shape of swift-async-algorithms' channel state machine).
@usableFromInline
struct SubjectStateMachine<Element: Sendable> {
    @usableFromInline typealias Entry = SubjectEntry<Element>

    /// An event queued for the deliverer.
    @usableFromInline
    enum Event {
        case value(Element)
        case attach(Entry, replay: Element?)
        case terminate(Completion)
    }

    /// Live entries in subscription order, with tombstones of disposed ones until the next compaction.
    @usableFromInline var subscribers: ContiguousArray<Entry> = []
    /// How many tombstones `subscribers` holds.
    @usableFromInline var tombstones = 0
    @usableFromInline var pending = PendingQueue<Event>()
    /// The thread that last claimed delivery; meaningful while the role is delivering.
    @usableFromInline var deliveringThread: UInt = 0
    /// How many events were ever queued; an event's ticket is this count right after it was queued.
    @usableFromInline var enqueuedCount: UInt = 0
    /// The terminal event, once `complete`/`fail` was called (it may still be queued for delivery).
    @usableFromInline var terminal: Completion?
    /// The cached value, for a behavior subject; nil for a publish subject.
    @usableFromInline var current: Element?
    /// How many `modify` steps took effect: a step publishes only if this has not changed since it read ``current``.
    @usableFromInline var modifications: UInt = 0
    /// Whether a subscriber that comes after the terminal event receives the cached value before it, as from a
    /// replay subject; a behavior subject gives it the terminal event alone.
    @usableFromInline let replaysAfterTermination: Bool

    @inlinable
    init(current: Element?, replaysAfterTermination: Bool = false) {
        self.current = current
        self.replaysAfterTermination = replaysAfterTermination
    }

    /// What a publisher (of a value or of the terminal event) does after the lock.
    @usableFromInline
    enum PublishAction {
        /// Nothing: the subject has terminated.
        case none
        /// Deliver to these subscribers: this thread is the deliverer.
        case deliver(ContiguousArray<Entry>)
        /// The deliverer will deliver the queued event with this ticket.
        case queued(ticket: UInt)
        /// Deliver what is queued: this thread became the deliverer after queueing.
        case drain
    }

    @inlinable
    mutating func publish(_ value: Element, thread: UInt, role: some DeliveryRole) -> PublishAction {
        guard terminal == nil else { return .none }
        // Only a behavior subject has a current value (`Optional.some` even when Element is itself optional).
        if current != nil { current = value }
        guard claim(thread: thread, role: role) else { return enqueue(.value(value), thread: thread, role: role) }
        return .deliver(subscribers)
    }

    /// Records the terminal event; `.deliver` hands over the subscribers to finish, and the list is emptied.
    @inlinable
    mutating func terminate(_ completion: Completion, thread: UInt, role: some DeliveryRole) -> PublishAction {
        guard terminal == nil else { return .none }
        terminal = completion
        guard claim(thread: thread, role: role) else {
            return enqueue(.terminate(completion), thread: thread, role: role)
        }
        defer { removeAllSubscribers() }
        return .deliver(subscribers)
    }

    /// What a new subscriber's `subscribe` does after the lock.
    @usableFromInline
    enum AttachAction {
        /// Deliver this terminal event to the newcomer alone, after the cached value when the subject replays it.
        case terminated(Completion, replay: Element?)
        /// Nothing more: attached, with no value to replay.
        case attached
        /// Replay this value to the newcomer: this thread is the deliverer.
        case replay(Element)
        case queued(ticket: UInt)
        case drain
    }

    @inlinable
    mutating func attach(_ entry: Entry, thread: UInt, role: some DeliveryRole) -> AttachAction {
        if let terminal { return .terminated(terminal, replay: replaysAfterTermination ? current : nil) }
        if role.isDelivering {
            // Behind the values already queued, so the newcomer's first value is the latest at its turn.
            switch enqueue(.attach(entry, replay: current), thread: thread, role: role) {
            case .queued(let ticket): return .queued(ticket: ticket)
            default: return .drain
            }
        }
        append(entry)
        guard let current else { return .attached }
        // Replaying outside the lock: become the deliverer, so values published meanwhile queue up behind it.
        _ = claim(thread: thread, role: role)
        return .replay(current)
    }

    /// What a detach leaves to release after the lock: the subscriber's entry (with its closures), and any other
    /// entries it took out (tombstones, or the old list of a compaction). Apart, so the common case allocates nothing.
    @usableFromInline
    struct Released {
        @usableFromInline var entry: Entry?
        @usableFromInline var others: ContiguousArray<Entry> = []

        @inlinable
        init(entry: Entry? = nil) {
            self.entry = entry
        }

        /// How many entries there are to release.
        @inlinable
        var count: Int { (entry == nil ? 0 : 1) + others.count }
    }

    /// Marks `subscriber` disposed and takes its entry out of the list; returns the entries to release after the
    /// lock and whether this call disposed it.
    ///
    /// The entry becomes a tombstone in O(1), and the list is compacted once tombstones outnumber live entries, so
    /// disposing many subscriptions in any order stays linear.
    @inlinable
    mutating func detach(
        _ subscriber: Subscriber<Element>, ignoring: @escaping @Sendable (Element) -> Void
    ) -> (released: Released, disposed: Bool) {
        guard subscriber.markDisposed() else { return (Released(), false) }
        let index = subscriber.index
        guard subscribers.indices.contains(index), subscribers[index].subscriber === subscriber else {
            return (Released(), true)
        }
        var released: Released
        if index == subscribers.count - 1 {
            // The newest subscriber (the common case: churn, bags disposing newest first): drop it, and any
            // tombstones it uncovers.
            released = Released(entry: subscribers.removeLast())
            while let last = subscribers.last, last.subscriber.isDisposed, tombstones > 0 {
                released.others.append(subscribers.removeLast())
                tombstones -= 1
            }
        } else {
            released = Released(entry: subscribers[index])
            subscribers[index] = subscribers[index].tombstone(ignoring: ignoring)
            tombstones += 1
            if tombstones > 16 && tombstones * 2 > subscribers.count {
                released.others = compact()
            }
        }
        return (released, true)
    }

    /// What the deliverer does next while draining the queue.
    @usableFromInline
    enum DrainStep {
        /// The queue is empty and the role was given up.
        case done
        /// Nothing to deliver for this event (an attach with nothing to replay, or already disposed).
        case skip
        case deliver(Element, ContiguousArray<Entry>)
        case finish(Completion, ContiguousArray<Entry>)
    }

    @inlinable
    mutating func nextQueued(role: some DeliveryRole) -> DrainStep {
        guard let event = pending.popFirst() else {
            role.release()
            return .done
        }
        switch event {
        case .value(let value):
            return .deliver(value, subscribers)
        case .attach(let entry, let replay):
            guard !entry.subscriber.isDisposed else { return .skip }
            append(entry)
            guard let replay else { return .skip }
            return .deliver(replay, [entry])
        case .terminate(let completion):
            defer { removeAllSubscribers() }
            return .finish(completion, subscribers)
        }
    }

    /// Live subscribers: those in the list that are not tombstones, and those queued to attach and not disposed.
    @inlinable
    var subscriberCount: Int {
        let queued = pending.count { event in
            if case .attach(let entry, _) = event { return !entry.subscriber.isDisposed }
            return false
        }
        return subscribers.count - tombstones + queued
    }

    // MARK: Helpers

    @inlinable
    mutating func claim(thread: UInt, role: some DeliveryRole) -> Bool {
        guard role.claimIfIdle() else { return false }
        deliveringThread = thread
        return true
    }

    /// Queues an event behind the deliverer; if the deliverer gave up in between, this thread must drain.
    @inlinable
    mutating func enqueue(_ event: Event, thread: UInt, role: some DeliveryRole) -> PublishAction {
        pending.append(event)
        enqueuedCount &+= 1
        guard role.markPendingOrClaim() else { return .queued(ticket: enqueuedCount) }
        deliveringThread = thread
        return .drain
    }

    /// Appends a live entry and records its index.
    @inlinable
    mutating func append(_ entry: Entry) {
        entry.subscriber.index = subscribers.count
        subscribers.append(entry)
    }

    @inlinable
    mutating func removeAllSubscribers() {
        subscribers = []
        tombstones = 0
    }

    /// Drops the tombstones and renumbers the live entries; returns the old list, to release after the lock.
    @inlinable
    mutating func compact() -> ContiguousArray<Entry> {
        let old = subscribers
        subscribers = old.filter { !$0.subscriber.isDisposed }
        for (index, entry) in subscribers.enumerated() { entry.subscriber.index = index }
        tombstones = 0
        return old
    }
}
