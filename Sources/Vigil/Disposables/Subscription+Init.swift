import Synchronization

extension Subscription {
    /// Creates a subscription that runs `onDispose` once, when it is disposed or released.
    ///
    /// For custom ``Observable``s: return one that stops whatever feeds the observer.
    public convenience init(onDispose: @escaping @Sendable () -> Void) {
        self.init(target: ClosureTarget(onDispose))
    }

    /// Creates a subscription that disposes all of `disposables`, in order, when it is disposed or released.
    public convenience init(disposing disposables: [any Disposable]) {
        self.init(target: ClosureTarget { for disposable in disposables { disposable.dispose() } })
    }
}

/// A subscription target that runs a closure once.
private final class ClosureTarget: SubscriptionTarget {
    private let action: Mutex<(@Sendable () -> Void)?>

    init(_ action: @escaping @Sendable () -> Void) {
        self.action = Mutex(action)
    }

    func cancel() {
        let taken = action.withLock { action in
            defer { action = nil }
            return action
        }
        taken?()
    }
}
