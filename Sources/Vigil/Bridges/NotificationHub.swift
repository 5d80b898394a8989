import Synchronization

/// A typed notification hub: post a value of any `Sendable` type, observe by type, optionally from one sender.
///
/// The type is the name: no string keys, no casting at the receiver.
///
/// ```swift
/// struct BatteryLow: Sendable { let percent: Double }
/// let subscription = NotificationHub.shared.observe(BatteryLow.self) { print($0.percent) }
/// NotificationHub.shared.post(BatteryLow(percent: 5))
/// ```
///
/// Observers are called as their ``Delivery`` says, never under a lock; posts of one type are serialized like a
/// ``PublishSubject``'s publishes.
public final class NotificationHub: Sendable {
    /// A hub shared by the whole process.
    public static let shared = NotificationHub()

    /// One ``NotificationChannel`` per notification type, by the type's identifier.
    private let channels = FutexMutex<[ObjectIdentifier: any Sendable]>([:])

    /// Creates a hub of its own, separate from ``shared``.
    public init() {}

    /// Delivers `notification` to the observers of its type, and of that type from `sender`.
    ///
    /// Which observers filtering on a sender this notification reaches is decided here, while the caller holds
    /// `sender`: a post queued behind a delivery in progress (made from inside an observer, say) reaches them even
    /// if `sender` is released before it is delivered. Only the sender's identity is used: it may be any object,
    /// `Sendable` or not, and the hub neither keeps nor touches it.
    ///
    /// - Parameters:
    ///   - notification: The value to deliver.
    ///   - sender: The object posting it, if observers should be able to filter by sender.
    public func post<Notification: Sendable>(_ notification: Notification, from sender: AnyObject? = nil) {
        channel(for: Notification.self).post(notification, from: sender.map(ObjectIdentifier.init))
    }

    /// Observes notifications of `type`, optionally only those posted by `sender`.
    ///
    /// - Parameters:
    ///   - type: The type of notification to observe.
    ///   - sender: Only notifications posted with this sender (compared by identity); nil for all. The hub holds it
    ///     weakly and never touches it. A notification it posted is delivered even if it is released before the
    ///     delivery; once it is released, no later post matches, not even one from a new object that happens to get
    ///     its address. It must be `Sendable` (any actor, any `@MainActor` class, any
    ///     `Sendable` class): the observation keeps a weak reference to it across threads, which Swift cannot check
    ///     for other objects. Posting needs no such thing: any object can be a sender there.
    ///   - delivery: Where `handler` runs.
    ///   - handler: Called with each notification.
    /// - Returns: The subscription; hold it, or it is disposed when released.
    public func observe<Notification: Sendable>(
        _ type: Notification.Type,
        from sender: (any AnyObject & Sendable)? = nil,
        on delivery: Delivery = .immediate,
        _ handler: @escaping @Sendable (Notification) -> Void
    ) -> Subscription {
        observable(type, from: sender).subscribe(on: delivery, handler)
    }

    /// The notifications of `type` (from `sender`, if given) as an observable.
    ///
    /// Each subscription with a sender registers its filter with the channel for as long as it lasts; a post decides
    /// which registered filters it matches (see `NotificationChannel.post(_:from:)`) and carries the decision to
    /// the delivery, so the delivery never looks at the sender again.
    func observable<Notification: Sendable>(
        _ type: Notification.Type, from sender: (any AnyObject & Sendable)?
    ) -> Observable<Notification> {
        let channel = channel(for: type)
        let notifications = channel.subject.asObservable()
        guard let sender else { return notifications.map(\.value) }
        let wanted = WeakIdentity(sender)
        return Observable { delivery, onNext, onCompletion in
            let filter = channel.register(wanted)
            let subscription = notifications.compactMap { posted in posted.matches(filter) ? posted.value : nil }
                .subscribe(on: delivery, onNext: onNext, onCompletion: onCompletion)
            let registration = Subscription(onDispose: { channel.unregister(filter, of: wanted) })
            return Subscription(disposing: [subscription, registration])
        }
    }

    /// How many sender filters the observers of `type` have registered: one per live subscription with a sender.
    package func senderFilterCount<Notification: Sendable>(for type: Notification.Type) -> Int {
        channel(for: type).senderFilterCount
    }

    private func channel<Notification: Sendable>(for type: Notification.Type) -> NotificationChannel<Notification> {
        channels.withLock { channels in
            let key = ObjectIdentifier(type)
            if let existing = channels[key] as? NotificationChannel<Notification> { return existing }
            let created = NotificationChannel<Notification>()
            channels[key] = created
            return created
        }
    }
}

/// The notifications of one type: a subject that serializes their delivery, and the sender filters of the
/// subscriptions observing them.
final class NotificationChannel<Notification: Sendable>: Sendable {
    /// The sender filters, by the identifier of the sender each wants, then by filter token.
    private struct Filters {
        var nextToken = 0
        var bySender: [ObjectIdentifier: [Int: WeakIdentity]] = [:]
        var count = 0
    }

    let subject = PublishSubject<Posted<Notification>>()
    private let filters = FutexMutex(Filters())

    /// Publishes `value` with the tokens of the filters that want `sender`, decided now.
    ///
    /// A filter matches when it wants this identifier and its object is alive: the caller holds its sender, and two
    /// live objects never share an address, so that object is the sender. A filter whose object was released never
    /// matches, even a new object at its address. One dictionary lookup under the lock; none without a sender.
    func post(_ value: Notification, from sender: ObjectIdentifier?) {
        var matching: [Int] = []
        if let sender {
            matching = filters.withLock { filters in
                guard let wanting = filters.bySender[sender] else { return [] }
                return wanting.compactMap { token, wanted in wanted.isAlive ? token : nil }
            }
        }
        subject.publish(Posted(value: value, matchingFilters: matching))
    }

    /// Registers a filter that wants `wanted`'s object; returns its token.
    func register(_ wanted: WeakIdentity) -> Int {
        filters.withLock { filters in
            let token = filters.nextToken
            filters.nextToken += 1
            filters.bySender[wanted.identifier, default: [:]][token] = wanted
            filters.count += 1
            return token
        }
    }

    /// Removes the filter `token`, registered for `wanted`.
    func unregister(_ token: Int, of wanted: WeakIdentity) {
        filters.withLock { filters in
            guard filters.bySender[wanted.identifier]?.removeValue(forKey: token) != nil else { return }
            filters.count -= 1
            if filters.bySender[wanted.identifier]?.isEmpty == true { filters.bySender[wanted.identifier] = nil }
        }
    }

    var senderFilterCount: Int {
        filters.withLock { $0.count }
    }
}

/// A notification with the sender filters its post matched.
struct Posted<Value: Sendable>: Sendable {
    let value: Value
    /// The tokens of the filters whose sender posted it; empty for most posts.
    let matchingFilters: [Int]

    func matches(_ filter: Int) -> Bool {
        matchingFilters.contains(filter)
    }
}
