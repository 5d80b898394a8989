import Synchronization

/// A live subscription to an ``ObservableType``; disposing it stops its callbacks.
///
/// A subscription that nobody holds is disposed when it is released: keep it, or put it in a ``DisposeBag``.
/// Once ``dispose()`` returns, no new callback of this subscription starts, and one that was running on another
/// thread has returned (unless `dispose()` is called from inside that very callback); values still queued for it are
/// dropped, and its closures are released.
public final class Subscription: Disposable {
    /// What disposing does; for a subject's subscriber, created where `subscribe` was specialized, so the cancel
    /// path runs specialized code too.
    @usableFromInline let cancel: @Sendable () -> Void
    @usableFromInline let disposed = Atomic<Bool>(false)

    @inlinable
    init(cancel: @escaping @Sendable () -> Void) {
        self.cancel = cancel
    }

    /// Creates a subscription that runs `onDispose` once, when it is disposed or released.
    ///
    /// For custom ``Observable``s: return one that stops whatever feeds the observer.
    public convenience init(onDispose: @escaping @Sendable () -> Void) {
        self.init(cancel: onDispose)
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
        cancel()
    }

    public var isDisposed: Bool {
        disposed.load(ordering: .acquiring)
    }
}
