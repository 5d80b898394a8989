import Glibc
import Synchronization

/// A GNSS receiver for a fake machine: `class/gnss/gnss0` (type `UBX`) in its sysfs, and `gnss0` in its dev, a link to
/// a pseudo-terminal that replays a real receiver's log (gpsd's u-blox LEA-4H: no fix, then a fix) over and over
/// while the machine lives, as a receiver sends every second; so a source that stops and starts again reads new
/// epochs.
package final class FakeGNSSReceiver: Sendable {
    /// Shared with the replay thread, which must not keep the receiver alive.
    private final class StopFlag: Sendable {
        let value = Atomic<Bool>(false)
    }

    private let terminal: PseudoTerminal
    private let stopped = StopFlag()

    /// Adds the receiver to `sys` and `dev`; nil when the system has no pseudo-terminal free.
    package init?(sys: FakeSysfsTree, dev: FakeSysfsTree) {
        guard let terminal = PseudoTerminal() else { return nil }
        self.terminal = terminal
        sys.device("class/gnss/gnss0", ["type": "UBX"])
        dev.link("gnss0", to: terminal.slavePath)
        let log = Fixtures.bytes("nmea/ublox-lea-4h-nofix-then-fix.log") ?? []
        let stopped = self.stopped
        TestThread.detach {
            var offset = 0
            while !stopped.value.load(ordering: .relaxed), !log.isEmpty {
                let end = min(offset + 512, log.count)
                // Blocks while nobody reads and the terminal is full; the hang-up in deinit ends it.
                guard terminal.write(log[offset..<end]) else { return }
                offset = end == log.count ? 0 : end
                usleep(20_000)
            }
        }
    }

    deinit {
        stopped.value.store(true, ordering: .relaxed)
        terminal.hangUp()
    }
}
