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
/// Once ``dispose()`` returns, no new callback of this subscription starts, and one that was running on another
/// thread has returned (unless `dispose()` is called from inside that very callback); values still queued for it are
/// dropped, and its closures are released.
public final class Subscription: Disposable {
    @usableFromInline let target: any SubscriptionTarget
    @usableFromInline let disposed = Atomic<Bool>(false)

    @inlinable
    init(target: any SubscriptionTarget) {
        self.target = target
    }

    /// A subscription that was never connected to anything, already disposed.
    public static func disposed() -> Subscription {
        let subscription = Subscription(onDispose: {})
        subscription.dispose()
        return subscription
    }

    deinit {
        dispose()
    }

    public func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        target.cancel()
    }

    public var isDisposed: Bool {
        disposed.load(ordering: .acquiring)
    }
}
