import Synchronization

/// The machinery both subjects share: the subscriber list, the serialized delivery loop, and termination.
///
/// Publishes are serialized per subject by a drain loop: a publisher that finds nobody delivering becomes the
/// deliverer and delivers outside the lock; a publisher that finds a delivery in progress (on another thread, or
/// from inside a callback) queues its event and returns, and the deliverer delivers it next. So every subscriber
/// sees one order, callbacks never overlap, nothing recurses, and no lock is held while user code runs.
@usableFromInline
final class SubjectEngine<Element: Sendable>: Sendable {
    /// One subscriber as the delivery loop sees it: the function to call per value, and its subscriber.
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline let subscriber: Subscriber<Element>
        /// The user's closure for immediate delivery; the mailbox's push for queue delivery.
        @usableFromInline let onNext: @Sendable (Element) -> Void

        @inlinable
        init(subscriber: Subscriber<Element>, onNext: @escaping @Sendable (Element) -> Void) {
            self.subscriber = subscriber
            self.onNext = onNext
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
        @usableFromInline var subscribers: ContiguousArray<Entry> = []
        @usableFromInline var pending = PendingQueue<Event>()
        @usableFromInline var isDelivering = false
        @usableFromInline var deliveringThread: UInt = 0
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

    @inlinable
    init(current: Element?) {
        state = Mutex(State(current: current))
    }

    // MARK: Publishing

    @inlinable
    func publish(_ value: Element) {
        let snapshot = state.withLock { state -> Snapshot? in
            guard state.terminal == nil else { return nil }
            // Only a behavior subject has a current value (`Optional.some` even when Element is itself optional).
            if state.current != nil { state.current = value }
            guard !state.isDelivering else {
                state.pending.append(.value(value))
                return nil
            }
            state.isDelivering = true
            state.deliveringThread = currentThreadID()
            return takeSnapshot(of: state.subscribers)
        }
        guard let snapshot else { return }
        deliver(value, to: snapshot)
        drainPending()
    }

    @inlinable
    func terminate(_ completion: Completion) {
        let snapshot = state.withLock { state -> Snapshot? in
            guard state.terminal == nil else { return nil }
            state.terminal = completion
            guard !state.isDelivering else {
                state.pending.append(.terminate(completion))
                return nil
            }
            state.isDelivering = true
            state.deliveringThread = currentThreadID()
            defer { state.subscribers = [] }
            return takeSnapshot(of: state.subscribers)
        }
        guard let snapshot else { return }
        finish(snapshot, with: completion)
        drainPending()
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
        for entry in subscribers { entry.subscriber.finish(.finished) }
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
            entry = Entry(subscriber: Subscriber(engine: self, mailbox: nil, onCompletion: onCompletion), onNext: onNext)
        case .queue(let queue, let buffer):
            let mailbox = Mailbox(queue: queue, policy: buffer, onNext: onNext, onCompletion: onCompletion)
            entry = Entry(
                subscriber: Subscriber(engine: self, mailbox: mailbox, onCompletion: nil),
                onNext: { mailbox.push($0) }
            )
        }
        let action = state.withLock { state -> AttachAction in
            if let terminal = state.terminal { return .terminated(terminal) }
            guard !state.isDelivering else {
                state.pending.append(.attach(entry, replay: state.current))
                return .queued
            }
            state.subscribers.append(entry)
            guard let current = state.current else { return .attached }
            // Replaying outside the lock: become the deliverer, so values published meanwhile queue up behind it.
            state.isDelivering = true
            state.deliveringThread = currentThreadID()
            return .replay(current)
        }
        switch action {
        case .terminated(let completion):
            entry.subscriber.finish(completion)
        case .queued, .attached:
            break
        case .replay(let value):
            // Nobody else holds the subscription yet, so nobody can dispose it during this call.
            entry.onNext(value)
            drainPending()
        }
        return Subscription(target: entry.subscriber)
    }

    @usableFromInline
    enum AttachAction {
        case terminated(Completion)
        case queued
        case attached
        case replay(Element)
    }

    // MARK: Disposing

    /// Removes a disposed subscriber; if a delivery on another thread may be calling it, waits until it is not.
    @inlinable
    func detach(_ subscriber: Subscriber<Element>) {
        let identity = subscriber.identity
        let deliveringElsewhere = state.withLock { state -> Bool in
            if let index = state.subscribers.lastIndex(where: { $0.subscriber === subscriber }) {
                state.subscribers.remove(at: index)
            }
            guard state.isDelivering else { return false }
            disposals.add(1, ordering: .sequentiallyConsistent)
            return state.deliveringThread != currentThreadID()
        }
        guard deliveringElsewhere else { return }
        CrossThreadFence.synchronize()
        CrossThreadFence.wait { activeSubscriber.load(ordering: .acquiring) != identity }
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
            if disposals.load(ordering: .acquiring) != epoch, entry.subscriber.isDisposed.load(ordering: .acquiring) {
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
            entry.subscriber.finish(completion)
        }
        activeSubscriber.store(0, ordering: .releasing)
    }

    /// Delivers queued events until none is left, then gives up the deliverer role.
    @inlinable
    func drainPending() {
        while true {
            let step = state.withLock { state -> DrainStep in
                guard let event = state.pending.popFirst() else {
                    state.isDelivering = false
                    state.deliveringThread = 0
                    return .done
                }
                switch event {
                case .value(let value):
                    return .deliver(value, takeSnapshot(of: state.subscribers))
                case .attach(let entry, let replay):
                    guard !entry.subscriber.isDisposed.load(ordering: .acquiring) else { return .skip }
                    state.subscribers.append(entry)
                    guard let replay else { return .skip }
                    return .deliver(replay, takeSnapshot(of: [entry]))
                case .terminate(let completion):
                    defer { state.subscribers = [] }
                    return .finish(completion, takeSnapshot(of: state.subscribers))
                }
            }
            switch step {
            case .done:
                return
            case .skip:
                continue
            case .deliver(let value, let snapshot):
                deliver(value, to: snapshot)
            case .finish(let completion, let snapshot):
                finish(snapshot, with: completion)
            }
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
