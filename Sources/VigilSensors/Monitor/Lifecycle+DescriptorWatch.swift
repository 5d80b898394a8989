// The descriptor-watch driver: one descriptor of a run (a timerfd, a PSI trigger) watched on the event loop,
// unregistered and closed when the run ends.
extension Lifecycle {
    /// Watches `descriptor` on `loop` for `generation`'s run: the run owns it from now on, and its end cancels the
    /// registration and then closes the descriptor.
    ///
    /// When the run is over already, the registration is cancelled and the descriptor closed at once.
    ///
    /// - Parameters:
    ///   - descriptor: An open descriptor; ownership passes to the run, even when this throws.
    ///   - loop: The loop that watches it.
    ///   - interest: What to watch for.
    ///   - generation: The run that owns the descriptor.
    ///   - handler: Called on the loop thread when the descriptor is ready, never under a lock.
    /// - Throws: The loop's ``SensorError`` when it refuses the descriptor (which is then closed).
    func watch(
        _ descriptor: FileDescriptor, on loop: EventLoop, interest: EventLoop.Interest, generation: UInt64,
        handler: @escaping @Sendable (EventLoop.Interest) -> Void
    ) throws(SensorError) {
        try watch(
            descriptor.rawValue, closing: { descriptor.close() }, on: loop, interest: interest,
            generation: generation, handler: handler)
    }

    /// Watches the raw `descriptor` that `closing` closes; see ``watch(_:on:interest:generation:handler:)``.
    func watch(
        _ descriptor: Int32, closing: @escaping @Sendable () -> Void, on loop: EventLoop,
        interest: EventLoop.Interest, generation: UInt64, handler: @escaping @Sendable (EventLoop.Interest) -> Void
    ) throws(SensorError) {
        let registration: EventLoop.Registration
        do {
            registration = try loop.register(fileDescriptor: descriptor, interest: interest, handler: handler)
        } catch {
            closing()
            throw error
        }
        keep(generation) {
            registration.cancel()
            closing()
        }
    }
}

extension Lifecycle {
    /// Watches the open `attribute` for `POLLPRI` for `generation`'s run, kept in `holder` for the run's reads from
    /// offset 0; the run's end unregisters it, empties `holder` and closes it.
    ///
    /// - Throws: The loop's ``SensorError`` when it refuses the attribute (which is then closed and `holder` emptied).
    func watchPriority(
        _ attribute: OpenAttribute, holder: SharedValue<OpenAttribute?>, on loop: EventLoop, generation: UInt64,
        handler: @escaping @Sendable () -> Void
    ) throws(SensorError) {
        holder.value = attribute
        try watch(
            attribute.rawValue,
            closing: {
                holder.value = nil
                attribute.close()
            }, on: loop, interest: .priority, generation: generation
        ) { _ in handler() }
    }
}
