/// Something that can be cancelled once, from any thread.
///
/// Disposing never waits for user code: once ``dispose()`` returns, no value published after the return is
/// delivered, but one callback already on its way on another thread may still run (see ``Subscription``).
/// ``disposeAndWait()`` also waits for that one to return.
public protocol Disposable: AnyObject, Sendable {
    /// Cancels without waiting; calling it again does nothing. Safe from any thread and from inside callbacks.
    func dispose()

    /// Cancels like ``dispose()``, then waits until a callback already running on another thread has returned.
    ///
    /// Called from inside any Vigil callback on this thread it does not wait (it behaves like ``dispose()``), so
    /// callbacks that dispose each other cannot deadlock. The one way left to deadlock: calling it while holding
    /// something (a lock, a queue) that the running callback needs.
    func disposeAndWait()

    /// Whether ``dispose()`` has been called.
    var isDisposed: Bool { get }
}

extension Disposable {
    /// Cancels without waiting: the default for disposables that run no callbacks of their own.
    public func disposeAndWait() {
        dispose()
    }

    /// Puts this disposable into `bag`, which disposes it when the bag is disposed or released.
    ///
    /// If the bag is already disposed, this is disposed at once.
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }
}
