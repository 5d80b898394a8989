import Vigil
import VigilSensors

/// Injected `CLOCK_BOOTTIME`/`CLOCK_MONOTONIC` pairs: both clocks advance while awake, only the boot-time clock while
/// asleep, as the kernel's do; a test moves them and hands ``read`` to a ``WakeWatch``.
final class ClockPairs: Sendable {
    private let pair: FutexMutex<ClockPair>

    /// Starts at `boottime` and `monotonic` (a machine that slept `boottime − monotonic` before the test began).
    init(boottime: Duration = .seconds(5000), monotonic: Duration = .seconds(4000)) {
        pair = FutexMutex(ClockPair(boottime: boottime, monotonic: monotonic))
    }

    /// The current pair.
    var read: @Sendable () -> ClockPair { { [self] in self.pair.withLock { $0 } } }

    /// Time passes awake: both clocks advance.
    func awake(_ duration: Duration) {
        pair.withLock { pair in
            pair.boottime += duration
            pair.monotonic += duration
        }
    }

    /// The machine sleeps: only the boot-time clock advances.
    func asleep(_ duration: Duration) {
        pair.withLock { $0.boottime += duration }
    }
}
