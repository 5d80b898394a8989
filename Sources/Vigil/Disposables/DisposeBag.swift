/// Holds disposables and disposes all of them at once: on ``dispose()`` or when the bag is released.
///
/// Inserting into a bag that is already disposed disposes the newcomer at once, so nothing leaks.
public final class DisposeBag: Sendable {
    private struct State {
        var disposables: [any Disposable] = []
        var isDisposed = false
    }

    private let state = FutexMutex(State())

    /// Creates an empty bag.
    public init() {}

    deinit {
        dispose()
    }

    /// Adds a disposable; if the bag is already disposed, disposes it at once instead.
    public func insert(_ disposable: any Disposable) {
        let accepted = state.withLock { state -> Bool in
            guard !state.isDisposed else { return false }
            state.disposables.append(disposable)
            return true
        }
        if !accepted { disposable.dispose() }
    }

    /// Disposes everything in the bag, newest first (like unwinding a stack); later insertions are disposed at once.
    ///
    /// Newest first also makes each removal from a subject's subscriber list O(1), since later subscribers sit at
    /// its end. Safe to call more than once and from any thread.
    public func dispose() {
        for disposable in takeAll().reversed() { disposable.dispose() }
    }

    /// Disposes everything like ``dispose()``, then waits for each one's callbacks running on other threads.
    ///
    /// See ``Subscription/disposeAndWait()``: from inside a Vigil callback it does not wait.
    public func disposeAndWait() {
        for disposable in takeAll().reversed() { disposable.disposeAndWait() }
    }

    private func takeAll() -> [any Disposable] {
        state.withLock { state in
            state.isDisposed = true
            defer { state.disposables = [] }
            return state.disposables
        }
    }

    /// Whether ``dispose()`` has been called.
    public var isDisposed: Bool {
        state.withLock { $0.isDisposed }
    }
}
