import Synchronization

/// What a subscription tells its source when it is disposed.
@usableFromInline
protocol SubscriptionTarget: AnyObject, Sendable {
    /// Stops the subscription: no callback starts after this returns, pending values are dropped, closures released.
    func cancel()
}

/// A live subscription to an ``ObservableType``; disposing it stops its callbacks.
///
/// A subscription that nobody holds is disposed when it is released: keep it, or put it in a ``DisposeBag``.
/// Once ``dispose()`` returns, no new callback of this subscription starts (one already running on another thread
/// may finish), values still queued for it are dropped, and its closures are released.
public final class Subscription: Disposable {
    private let target: Mutex<(any SubscriptionTarget)?>

    @usableFromInline
    init(target: any SubscriptionTarget) {
        self.target = Mutex(target)
    }

    /// A subscription that was never connected to anything, already disposed.
    public static func disposed() -> Subscription {
        let subscription = Subscription(target: NoTarget())
        subscription.dispose()
        return subscription
    }

    deinit {
        dispose()
    }

    public func dispose() {
        let taken = target.withLock { target -> (any SubscriptionTarget)? in
            defer { target = nil }
            return target
        }
        taken?.cancel()
    }

    public var isDisposed: Bool {
        target.withLock { $0 == nil }
    }
}

/// The target of a subscription that has nothing to cancel.
private final class NoTarget: SubscriptionTarget {
    func cancel() {}
}
