/// A ``ManualClock``'s time, the tasks waiting on it, and the operator timers in flight, behind the clock's lock.
///
/// Every wait takes an id first (``reserve()``), so that a cancellation arriving before the continuation is
/// registered is remembered and the registration fails instead of waiting forever.
struct ManualClockState: Sendable {
    typealias Continuation = CheckedContinuation<Void, any Error>

    /// What a task waits for.
    enum Condition: Sendable {
        /// A sleep: the clock reaching the deadline. `tracked` marks the sleep of a Vigil operator's timer.
        case deadline(ManualClock.Instant, tracked: Bool)
        /// A test: exactly this many sleeps waiting.
        case sleeperCount(Int)
        /// A step of ``ManualClock/advance(to:)``: no operator timer between its start and its sleep, and none
        /// woken and still handling its firing.
        case settled
    }

    /// The continuations a change released: sleepers (in deadline order) and other waiters.
    struct Released: Sendable {
        var sleepers: [Continuation] = []
        var waiters: [Continuation] = []
    }

    private enum Slot: Sendable {
        case reserved
        case waiting(Condition, Continuation)
        case cancelled
    }

    var now = ManualClock.Instant(offset: .zero)
    private(set) var sleeperCount = 0
    /// Operator timers created whose sleep has not begun yet.
    private var startingTimers = 0
    /// Operator timers woken (by a step, or at once for a past deadline) that have not settled yet.
    private var firingTimers = 0
    private var slots: [Int: Slot] = [:]
    private var nextID = 0

    /// Takes an id for a wait about to begin.
    mutating func reserve() -> Int {
        nextID += 1
        slots[nextID] = .reserved
        return nextID
    }

    /// Registers the wait `id`; returns whether it was cancelled meanwhile, and what the registration released
    /// (this wait itself, if its condition already holds; the waiters for a settled clock, if it was the last
    /// operator timer starting).
    mutating func register(
        _ id: Int, _ condition: Condition, _ continuation: Continuation
    ) -> (isCancelled: Bool, released: Released) {
        if case .deadline(_, tracked: true) = condition { startingTimers -= 1 }
        guard case .reserved = slots[id] else {
            slots[id] = nil
            return (true, Released(waiters: releaseWaiters()))
        }
        if case .deadline(let deadline, let tracked) = condition, deadline <= now {
            slots[id] = nil
            if tracked { firingTimers += 1 }
            return (false, Released(sleepers: [continuation], waiters: releaseWaiters()))
        }
        slots[id] = .waiting(condition, continuation)
        if case .deadline = condition { sleeperCount += 1 }
        return (false, Released(waiters: releaseWaiters()))
    }

    /// Cancels the wait `id`: returns its continuation if it was waiting, and the waiters a change released.
    mutating func cancel(_ id: Int) -> (cancelled: Continuation?, released: Released) {
        switch slots[id] {
        case .reserved:
            slots[id] = .cancelled
            return (nil, Released())
        case .waiting(let condition, let continuation):
            slots[id] = nil
            if case .deadline = condition { sleeperCount -= 1 }
            return (continuation, Released(waiters: releaseWaiters()))
        case .cancelled, nil:
            return (nil, Released())
        }
    }

    mutating func timerArmed() {
        startingTimers += 1
    }

    mutating func timerSettled() -> Released {
        firingTimers -= 1
        return Released(waiters: releaseWaiters())
    }

    /// Moves the clock to the earliest deadline not after `target` and takes the sleepers due then, in the order
    /// they began; with none due by `target`, moves the clock to `target` and takes none.
    mutating func step(toward target: ManualClock.Instant) -> Released {
        var earliest: ManualClock.Instant?
        for case .waiting(.deadline(let deadline, _), _) in slots.values where deadline <= target {
            earliest = min(earliest ?? deadline, deadline)
        }
        now = max(now, earliest ?? target)
        guard earliest != nil else { return Released(waiters: releaseWaiters()) }
        var due: [(id: Int, tracked: Bool, continuation: Continuation)] = []
        for (id, slot) in slots {
            guard case .waiting(.deadline(let deadline, let tracked), let continuation) = slot, deadline <= now else {
                continue
            }
            due.append((id, tracked, continuation))
        }
        due.sort { $0.id < $1.id }
        for sleeper in due {
            slots[sleeper.id] = nil
            if sleeper.tracked { firingTimers += 1 }
        }
        sleeperCount -= due.count
        return Released(sleepers: due.map(\.continuation), waiters: releaseWaiters())
    }

    /// Removes and returns the waiters whose condition holds now.
    private mutating func releaseWaiters() -> [Continuation] {
        var released: [Continuation] = []
        for (id, slot) in slots {
            guard case .waiting(let condition, let continuation) = slot else { continue }
            switch condition {
            case .deadline: continue
            case .sleeperCount(let count): guard count == sleeperCount else { continue }
            case .settled: guard startingTimers == 0 && firingTimers == 0 else { continue }
            }
            slots[id] = nil
            released.append(continuation)
        }
        return released
    }
}
