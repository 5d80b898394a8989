extension Lifecycle {
    /// Calls `refresh` after every wake from a suspend during `generation`'s run (see ``WakeWatch``): what a source
    /// that keeps state in a cache does, since nothing else tells it the devices, links or files may have changed
    /// while the machine slept.
    ///
    /// A loop that cannot open the watch's timer leaves the source as it was: it still re-reads on its own timer and
    /// notifications, just not at once after a wake.
    func refreshAfterWake(on loop: EventLoop, generation: UInt64, _ refresh: @escaping @Sendable () -> Void) {
        guard let listener = try? loop.wakeWatch.subscribe(on: loop, { _ in refresh() }) else { return }
        keep(generation) { listener.cancel() }
    }
}
