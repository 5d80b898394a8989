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

    private let channels = FutexMutex<[ObjectIdentifier: any Sendable]>([:])

    /// Creates a hub of its own, separate from ``shared``.
    public init() {}

    /// Delivers `notification` to the observers of its type, and of that type from `sender`.
    ///
    /// Only the sender's identity travels with the notification: it may be any object, `Sendable` or not, and the
    /// hub neither keeps nor touches it.
    ///
    /// - Parameters:
    ///   - notification: The value to deliver.
    ///   - sender: The object posting it, if observers should be able to filter by sender.
    public func post<Notification: Sendable>(_ notification: Notification, from sender: AnyObject? = nil) {
        channel(for: Notification.self).publish(Posted(value: notification, sender: sender.map(ObjectIdentifier.init)))
    }

    /// Observes notifications of `type`, optionally only those posted by `sender`.
    ///
    /// - Parameters:
    ///   - type: The type of notification to observe.
    ///   - sender: Only notifications posted with this sender (compared by identity); nil for all. The hub holds it
    ///     weakly and never touches it; once it is released no notification matches, not even one from a new object
    ///     that happens to get its address. It must be `Sendable` (any actor, any `@MainActor` class, any
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
    /// The sender filter runs when a notification is posted, before the delivery, so a notification posted by the
    /// wanted sender is delivered even if the sender is released before the subscriber's queue runs.
    func observable<Notification: Sendable>(
        _ type: Notification.Type, from sender: (any AnyObject & Sendable)?
    ) -> Observable<Notification> {
        let notifications = channel(for: type).asObservable()
        guard let sender else { return notifications.map(\.value) }
        let wanted = WeakIdentity(sender)
        return notifications.compactMap { posted in wanted.matches(posted.sender) ? posted.value : nil }
    }

    private func channel<Notification: Sendable>(for type: Notification.Type) -> PublishSubject<Posted<Notification>> {
        channels.withLock { channels in
            let key = ObjectIdentifier(type)
            if let existing = channels[key] as? PublishSubject<Posted<Notification>> { return existing }
            let created = PublishSubject<Posted<Notification>>()
            channels[key] = created
            return created
        }
    }
}

/// A notification with the identity of its sender.
struct Posted<Value: Sendable>: Sendable {
    let value: Value
    let sender: ObjectIdentifier?
}
