extension EventLoop {
    /// Calls `handler` on the loop thread every `interval` of the loop's clock, first after one `interval`.
    ///
    /// The timer is a deadline in the loop's heap, not a descriptor of its own. If the loop falls behind (or a manual
    /// clock is advanced by several periods), missed expiries are coalesced into one call and the next one is due a
    /// period after it. The handler never runs under a lock of the loop; it may cancel its own registration or
    /// schedule other timers.
    ///
    /// An interval below 1 ms, zero and negative included, is refused like
    /// ``Source/setUpdateInterval(_:)`` refuses it: a repeating timer that short would keep the loop busy.
    ///
    /// - Throws: ``SensorError/invalidArgument(name:value:reason:)`` for an interval below 1 ms;
    ///   ``SensorError/systemCall(name:target:errno:)`` if the loop cannot start or arm its timer;
    ///   ``SensorError/unavailable(source:reason:)`` after ``shutdown()``.
    package func schedule(
        every interval: Duration, handler: @escaping @Sendable () -> Void
    ) throws(SensorError) -> Registration {
        let interval = try interval.validatedUpdateInterval(name: "interval")
        return try add(.timer(period: interval), delay: interval) { _ in handler() }
    }

    /// Calls `handler` once on the loop thread after `delay` of the loop's clock; the registration then cancels
    /// itself.
    ///
    /// A delay of zero or less runs the handler as soon as the loop thread gets to it.
    ///
    /// - Throws: ``SensorError/systemCall(name:target:errno:)`` if the loop cannot start or arm its timer;
    ///   ``SensorError/unavailable(source:reason:)`` after ``shutdown()``.
    package func schedule(
        after delay: Duration, handler: @escaping @Sendable () -> Void
    ) throws(SensorError) -> Registration {
        try add(.timer(period: nil), delay: delay) { _ in handler() }
    }
}
