extension EventLoop {
    /// Calls `handler` on the loop thread every `interval`, first after one `interval`.
    ///
    /// Backed by a `timerfd` on `CLOCK_MONOTONIC`; if the loop falls behind, missed expiries are coalesced into one
    /// call. The handler never runs under a lock of the loop.
    ///
    /// - Throws: ``SensorError/systemCall(name:target:errno:)`` if the timer cannot be created.
    package func schedule(
        every interval: Duration, handler: @escaping @Sendable () -> Void
    ) throws(SensorError) -> Registration {
        precondition(interval > .zero, "a repeating timer needs a positive interval")
        return try addTimer(first: interval, interval: interval, oneShot: false, handler: handler)
    }

    /// Calls `handler` once on the loop thread after `delay`; the registration then cancels itself.
    ///
    /// - Throws: ``SensorError/systemCall(name:target:errno:)`` if the timer cannot be created.
    package func schedule(
        after delay: Duration, handler: @escaping @Sendable () -> Void
    ) throws(SensorError) -> Registration {
        try addTimer(first: delay, interval: .zero, oneShot: true, handler: handler)
    }

    private func addTimer(
        first: Duration, interval: Duration, oneShot: Bool, handler: @escaping @Sendable () -> Void
    ) throws(SensorError) -> Registration {
        let timer: FileDescriptor
        do {
            timer = try Epoll.timer(first: first, interval: interval)
        } catch {
            throw .systemCall(name: "timerfd_create", target: "event loop timer", errno: error)
        }
        let fd = timer.rawValue
        return try add(fileDescriptor: fd, interest: .readable, owning: timer, oneShot: oneShot) { _ in
            if Epoll.drainCounter(fd) > 0 { handler() }
        }
    }
}
