import Synchronization

/// A live subscription to an ``ObservableType``; disposing it stops its callbacks.
///
/// A subscription that nobody holds is disposed when it is released: keep it, or put it in a ``DisposeBag``.
///
/// ``dispose()`` never waits for user code on another thread. Once it returns, no value published after the return
/// reaches this subscription's closures, and none of its callbacks starts on the calling thread. On another thread
/// at most one callback may still enter a closure after the return: one carrying a value (or the completion)
/// published before it, which that thread had already taken past its last check that the subscription is live.
/// Values still queued for it are dropped and its closures are released, as is everything they capture, even while
/// the `Subscription` object is kept. Each subscription receives a contiguous run of its source's values, with no
/// gap, ending where `dispose()` took effect.
///
/// For teardown that needs a barrier (before closing a descriptor the callback writes to, say), call
/// ``disposeAndWait()``: it also waits until every callback running on another thread has returned, behind any
/// chain of Vigil's operators.
public final class Subscription: Disposable {
    /// What a subscription can be asked to do.
    @usableFromInline
    enum Control: Sendable {
        /// Stop without waiting.
        case cancel
        /// Wait until callbacks that started on other threads have returned (after `cancel`).
        case awaitCallbacks
    }

    /// Carries out a control; for a subject's subscriber, created where `subscribe` was specialized, so the cancel
    /// path runs specialized code too.
    @usableFromInline let control: @Sendable (Control) -> Void
    @usableFromInline let disposed = Atomic<Bool>(false)

    @inlinable
    init(control: @escaping @Sendable (Control) -> Void) {
        self.control = control
    }

    /// Creates a subscription that runs `onDispose` once, when it is disposed or released.
    ///
    /// For custom ``Observable``s: return one that stops whatever feeds the observer. The closure is released once
    /// it has run, so what it captures does not live as long as the subscription object.
    public convenience init(onDispose: @escaping @Sendable () -> Void) {
        let action = DisposeAction(onDispose)
        self.init { control in
            if case .cancel = control { action.run() }
        }
    }

    /// Creates a subscription that disposes all of `disposables`, in order, when it is disposed or released.
    ///
    /// Its ``disposeAndWait()`` waits for each of them in turn.
    public convenience init(disposing disposables: [any Disposable]) {
        self.init { control in
            switch control {
            case .cancel: for disposable in disposables { disposable.dispose() }
            case .awaitCallbacks: for disposable in disposables { disposable.disposeAndWait() }
            }
        }
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

    /// Stops the subscription without waiting; see the type's discussion for exactly what holds afterwards.
    public func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        control(.cancel)
    }

    /// Disposes, then waits until a callback of this subscription running on another thread has returned.
    ///
    /// After it returns, no callback of this subscription is running anywhere, except on this thread. Called from
    /// inside any Vigil callback it does not wait (it behaves like ``dispose()``), so callbacks that dispose each
    /// other cannot deadlock. The one way left to deadlock: calling it while holding something (a lock, a serial
    /// queue) that the running callback needs.
    public func disposeAndWait() {
        dispose()
        guard !CallbackDepth.isInsideCallback else { return }
        control(.awaitCallbacks)
    }

    public var isDisposed: Bool {
        disposed.load(ordering: .acquiring)
    }
}
