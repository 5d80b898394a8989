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
    /// - Parameters:
    ///   - notification: The value to deliver.
    ///   - sender: The object posting it, if observers should be able to filter by sender.
    public func post<Notification: Sendable>(
        _ notification: Notification, from sender: (any AnyObject & Sendable)? = nil
    ) {
        channel(for: Notification.self).publish(Posted(value: notification, sender: sender.map(ObjectIdentifier.init)))
    }

    /// Observes notifications of `type`, optionally only those posted by `sender`.
    ///
    /// - Parameters:
    ///   - type: The type of notification to observe.
    ///   - sender: Only notifications posted with this sender; nil for all. The hub does not keep the sender alive,
    ///     and once it is released no notification matches.
    ///   - delivery: Where `handler` runs.
    ///   - handler: Called with each notification.
    /// - Returns: The subscription; hold it, or it is disposed when released.
    public func observe<Notification: Sendable>(
        _ type: Notification.Type,
        from sender: (any AnyObject & Sendable)? = nil,
        on delivery: Delivery = .immediate,
        _ handler: @escaping @Sendable (Notification) -> Void
    ) -> Subscription {
        let wanted = sender.map(WeakSender.init)
        return channel(for: type).subscribe(on: delivery) { posted in
            if let wanted {
                guard let object = wanted.object, posted.sender == ObjectIdentifier(object) else { return }
            }
            handler(posted.value)
        }
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

/// A sender filter that does not keep the sender alive.
private final class WeakSender: Sendable {
    weak let object: (any AnyObject & Sendable)?

    init(_ object: any AnyObject & Sendable) {
        self.object = object
    }
}
