import Synchronization

/// The machinery both subjects share: the subscriber list, the serialized delivery loop, and termination.
///
/// Publishes are serialized per subject by a drain loop: a publisher that finds nobody delivering becomes the
/// deliverer and delivers outside the lock; a publisher that finds a delivery in progress (on another thread, or
/// from inside a callback) queues its event and returns, and the deliverer delivers it next. So every subscriber
/// sees one order, callbacks never overlap, nothing recurses, and no lock is held while user code runs.
final class SubjectEngine<Element: Sendable>: Sendable {
    /// One subscriber as the delivery loop sees it: the function to call per value, and its subscriber.
    struct Entry: Sendable {
        let subscriber: Subscriber<Element>
        /// The user's closure for immediate delivery; the mailbox's push for queue delivery.
        let onNext: @Sendable (Element) -> Void
    }

    enum Event: Sendable {
        case value(Element)
        case attach(Entry, replay: Element?)
        case terminate(Completion)
    }

    struct State: Sendable {
        var subscribers: ContiguousArray<Entry> = []
        var pending = PendingQueue<Event>()
        var isDelivering = false
        var deliveringThread: UInt = 0
        /// The terminal event, once `complete`/`fail` was called (it may still be queued for delivery).
        var terminal: Completion?
        /// The cached value, for a behavior subject; nil for a publish subject.
        var current: Element?
    }

    let state: Mutex<State>
    /// The subscriber whose callback the deliverer is deciding on or running (0 when none).
    private let activeSubscriber = Atomic<UInt>(0)
    /// Counts disposals made while a delivery was in progress; a changed count makes the loop check each subscriber.
    private let disposals = Atomic<UInt>(0)

    init(current: Element?) {
        state = Mutex(State(current: current))
    }

    // MARK: Publishing

    func publish(_ value: Element) {
        let subscribers = state.withLock { state -> ContiguousArray<Entry>? in
            guard state.terminal == nil else { return nil }
            if state.current != nil { state.current = value }
            guard !state.isDelivering else {
                state.pending.append(.value(value))
                return nil
            }
            state.isDelivering = true
            state.deliveringThread = currentThreadID()
            return state.subscribers
        }
        guard let subscribers else { return }
        deliver(value, to: subscribers)
        drainPending()
    }

    func terminate(_ completion: Completion) {
        let subscribers = state.withLock { state -> ContiguousArray<Entry>? in
            guard state.terminal == nil else { return nil }
            state.terminal = completion
            guard !state.isDelivering else {
                state.pending.append(.terminate(completion))
                return nil
            }
            state.isDelivering = true
            state.deliveringThread = currentThreadID()
            defer { state.subscribers = [] }
            return state.subscribers
        }
        guard let subscribers else { return }
        finish(subscribers, with: completion)
        drainPending()
    }

    /// Finishes the live subscribers when the subject itself is released; nobody can be delivering then.
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

    private enum AttachAction {
        case terminated(Completion)
        case queued
        case attached
        case replay(Element)
    }

    // MARK: Disposing

    /// Removes a disposed subscriber; if a delivery on another thread may be calling it, waits until it is not.
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

    private func deliver(_ value: Element, to subscribers: ContiguousArray<Entry>) {
        let epoch = disposals.load(ordering: .acquiring)
        for entry in subscribers {
            activeSubscriber.store(entry.subscriber.identity, ordering: .releasing)
            atomicMemoryFence(ordering: .acquiringAndReleasing)
            if disposals.load(ordering: .acquiring) != epoch, entry.subscriber.isDisposed.load(ordering: .acquiring) {
                continue
            }
            entry.onNext(value)
        }
        activeSubscriber.store(0, ordering: .releasing)
    }

    private func finish(_ subscribers: ContiguousArray<Entry>, with completion: Completion) {
        for entry in subscribers {
            activeSubscriber.store(entry.subscriber.identity, ordering: .releasing)
            atomicMemoryFence(ordering: .acquiringAndReleasing)
            entry.subscriber.finish(completion)
        }
        activeSubscriber.store(0, ordering: .releasing)
    }

    /// Delivers queued events until none is left, then gives up the deliverer role.
    private func drainPending() {
        while true {
            let step = state.withLock { state -> DrainStep in
                guard let event = state.pending.popFirst() else {
                    state.isDelivering = false
                    state.deliveringThread = 0
                    return .done
                }
                switch event {
                case .value(let value):
                    return .deliver(value, state.subscribers)
                case .attach(let entry, let replay):
                    guard !entry.subscriber.isDisposed.load(ordering: .acquiring) else { return .skip }
                    state.subscribers.append(entry)
                    guard let replay else { return .skip }
                    return .deliver(replay, [entry])
                case .terminate(let completion):
                    defer { state.subscribers = [] }
                    return .finish(completion, state.subscribers)
                }
            }
            switch step {
            case .done:
                return
            case .skip:
                continue
            case .deliver(let value, let subscribers):
                deliver(value, to: subscribers)
            case .finish(let completion, let subscribers):
                finish(subscribers, with: completion)
            }
        }
    }

    private enum DrainStep {
        case done
        case skip
        case deliver(Element, ContiguousArray<Entry>)
        case finish(Completion, ContiguousArray<Entry>)
    }
}
