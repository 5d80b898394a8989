/// A closure run at most once and released when it runs, so a disposed subscription keeps nothing it captured.
final class DisposeAction: Sendable {
    private let action: FutexMutex<(@Sendable () -> Void)?>

    init(_ action: @escaping @Sendable () -> Void) {
        self.action = FutexMutex(action)
    }

    /// Runs the closure if it has not run yet, outside the lock, and releases it.
    func run() {
        let taken = action.withLock { action in
            defer { action = nil }
            return action
        }
        taken?()
    }
}
