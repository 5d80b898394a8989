import VigilSensors

extension EventLoop {
    /// Returns once the loop thread has handled what was ready before the call, and every timer due by `delay` from
    /// now on the loop's clock: a barrier instead of a fixed pause that hopes the loop got there.
    ///
    /// Descriptors that were ready are dispatched before the timers of the same wake-up, so a handler that should not
    /// run (a cancelled registration, a stopped source) would have run by the time this returns.
    func barrier(after delay: Duration = .zero) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            do {
                _ = try schedule(after: delay) { continuation.resume() }
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }
}
