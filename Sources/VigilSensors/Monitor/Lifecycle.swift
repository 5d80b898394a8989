import Vigil

/// The lifecycle every source shares: one claim per start, rollback of a failed start, a generation that tells the
/// current run from an older one, stop, and release of what a run holds.
///
/// A source's `startMonitoring()` calls ``start(_:)``: of many concurrent calls, one claims the run and runs its body
/// with the run's generation; the others return at once. Whatever the body (or a later loop callback) opens or
/// registers is handed to ``keep(_:release:)`` with that generation: kept until the run ends, or released at once when
/// the run is already over (a stop raced the start). When the body throws, the run is rolled back: everything kept is
/// released and the source is stopped again. ``stop()`` ends the run and releases everything kept, after the lock,
/// newest first. A loop callback checks ``isCurrent(_:)`` (or passes its generation to ``keep(_:release:)``), so
/// work begun for an older run does nothing. ``restart(_:)`` releases a failed run's resources but stays running
/// under a new generation, for sources that reopen by themselves.
///
/// Releases run on the thread that stops, never under the lock; they must not call back into this lifecycle's
/// ``stop()`` (a release that cancels an event-loop registration may run on the loop thread itself, which the loop
/// allows).
final class Lifecycle: Sendable {
    private struct State {
        var running = false
        var generation: UInt64 = 0
        var releases: [@Sendable () -> Void] = []
    }

    private let state = FutexMutex(State())

    /// Creates a stopped lifecycle.
    init() {}

    /// Whether a run is claimed and not ended.
    var isRunning: Bool { state.withLock { $0.running } }

    /// Whether `generation` is the running run's.
    func isCurrent(_ generation: UInt64) -> Bool {
        state.withLock { $0.running && $0.generation == generation }
    }

    /// Claims a run and runs `body` with its generation on the calling thread; does nothing when a run is claimed.
    ///
    /// - Parameter body: Opens and registers what the run needs, handing each to ``keep(_:release:)``.
    /// - Throws: What `body` throws, after rolling the run back (releasing what it kept and stopping).
    func start(_ body: (UInt64) throws(SensorError) -> Void) throws(SensorError) {
        let generation: UInt64? = state.withLock { state in
            guard !state.running else { return nil }
            state.running = true
            state.generation &+= 1
            return state.generation
        }
        guard let generation else { return }
        do {
            try body(generation)
        } catch {
            end(generation)
            throw error
        }
    }

    /// Keeps `release` to run when `generation`'s run ends; runs it at once when that run is over already.
    ///
    /// - Returns: Whether it was kept (false: released already, as the run is over).
    @discardableResult
    func keep(_ generation: UInt64, release: @escaping @Sendable () -> Void) -> Bool {
        let kept = state.withLock { state in
            guard state.running, state.generation == generation else { return false }
            state.releases.append(release)
            return true
        }
        if !kept { release() }
        return kept
    }

    /// Ends the run and releases everything it kept; does nothing when stopped.
    ///
    /// - Returns: The generation of the run it ended, or nil when none was running; for a source that also holds
    ///   per-run state outside the lifecycle, to release only that run's.
    @discardableResult
    func stop() -> UInt64? { finish(nil) }

    /// Ends `generation`'s run when it is the current one (a failure seen by a loop callback of that run), or the
    /// current run when `generation` is nil.
    ///
    /// - Returns: Whether this call ended a run (false: it was over already).
    @discardableResult
    func end(_ generation: UInt64?) -> Bool { finish(generation) != nil }

    /// Ends `generation`'s run (any run when nil) and releases what it kept; returns the generation it ended.
    private func finish(_ generation: UInt64?) -> UInt64? {
        let ended = state.withLock { state -> (UInt64, [@Sendable () -> Void])? in
            guard state.running, generation == nil || state.generation == generation else { return nil }
            let ended = state.generation
            state.running = false
            state.generation &+= 1
            defer { state.releases = [] }
            return (ended, state.releases)
        }
        guard let (generation, releases) = ended else { return nil }
        for release in releases.reversed() { release() }
        return generation
    }

    /// Releases what `generation`'s run kept and keeps running under a new generation, for a source that reopens by
    /// itself after a failure.
    ///
    /// - Returns: The new generation, or nil when `generation` is not the current run (stopped or restarted meanwhile).
    func restart(_ generation: UInt64) -> UInt64? {
        let decided = state.withLock { state -> (UInt64, [@Sendable () -> Void])? in
            guard state.running, state.generation == generation else { return nil }
            state.generation &+= 1
            defer { state.releases = [] }
            return (state.generation, state.releases)
        }
        guard let (next, releases) = decided else { return nil }
        for release in releases.reversed() { release() }
        return next
    }
}
