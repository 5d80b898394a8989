extension EventLoop {
    /// A registered descriptor or timer; ``cancel()`` removes it.
    ///
    /// Releasing a registration does not cancel it: keep it and call ``cancel()`` when the source stops.
    package final class Registration: Sendable {
        private let loop: EventLoop
        let token: UInt64

        init(loop: EventLoop, token: UInt64) {
            self.loop = loop
            self.token = token
        }

        /// Removes the registration; calling it again does nothing.
        ///
        /// Once `cancel()` returns, no call of the handler starts, and a call that was running on the loop thread
        /// has finished (unless `cancel()` was called on the loop thread itself, for example from inside the
        /// handler, which is allowed). So do not call it while holding a lock the handler takes. The caller may close
        /// its descriptor as soon as `cancel()` returns; a timer's deadline leaves the loop's heap at once.
        package func cancel() {
            loop.unregister(token)
        }

        /// Watches the descriptor for `interest` from now on, for example ``Interest/writable`` only while a socket
        /// has bytes to send; does nothing after ``cancel()``, or for a timer.
        ///
        /// Safe from any thread, including from inside the handler, and never waits for a running handler, so it may
        /// be called while holding a lock the handler takes.
        ///
        /// - Parameter interest: What to watch for; it replaces the interest given when registering.
        /// - Throws: ``SensorError/systemCall(name:target:errno:)`` if epoll refuses the change.
        package func setInterest(_ interest: Interest) throws(SensorError) {
            try loop.modify(token, interest: interest)
        }

        /// Whether the registration has been cancelled (or a one-shot timer has fired).
        package var isCancelled: Bool { !loop.isRegistered(token) }
    }
}
