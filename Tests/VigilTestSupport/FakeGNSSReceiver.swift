import Glibc
import Synchronization

/// A GNSS receiver for a fake machine: `class/gnss/gnss0` (type `UBX`) in its sysfs, and `gnss0` in its dev, a link to
/// a pseudo-terminal that replays a real receiver's log (gpsd's u-blox LEA-4H: no fix, then a fix) while the machine
/// lives, as a receiver sends every second; so a source that stops and starts again reads new epochs.
///
/// The whole log is sent once, from its cold start; then only its end, from ``repeatedFrom`` on, over and over: a
/// receiver that has a fix keeps it. (Repeating the whole log made "no fix" come back a quarter of the time, so a test
/// that looks for the fix at one moment, as a starved test process does, failed now and then.)
package final class FakeGNSSReceiver: Sendable {
    /// Shared with the replay thread, which must not keep the receiver alive.
    private final class StopFlag: Sendable {
        let value = Atomic<Bool>(false)
    }

    /// The log the receiver replays.
    package static let log = Fixtures.bytes("nmea/ublox-lea-4h-nofix-then-fix.log") ?? []

    /// Where the repeated part of ``log`` begins: the RMC of 03:10:08, from which every epoch has a fix.
    package static let repeatedFrom: Int = {
        let marker = Array("$GPRMC,031008.00".utf8)
        guard marker.count <= log.count else { return 0 }
        return (0...(log.count - marker.count)).first { log[$0..<($0 + marker.count)].elementsEqual(marker) } ?? 0
    }()

    private let terminal: PseudoTerminal
    private let stopped = StopFlag()

    /// Adds the receiver to `sys` and `dev`; nil when the system has no pseudo-terminal free.
    package init?(sys: FakeSysfsTree, dev: FakeSysfsTree) {
        guard let terminal = PseudoTerminal() else { return nil }
        self.terminal = terminal
        sys.device("class/gnss/gnss0", ["type": "UBX"])
        dev.link("gnss0", to: terminal.slavePath)
        let log = Self.log
        let repeatedFrom = Self.repeatedFrom
        let stopped = self.stopped
        TestThread.detach {
            var offset = 0
            while !stopped.value.load(ordering: .relaxed), !log.isEmpty {
                let end = min(offset + 512, log.count)
                // Blocks while nobody reads and the terminal is full; the hang-up in deinit ends it.
                guard terminal.write(log[offset..<end]) else { return }
                offset = end == log.count ? repeatedFrom : end
                usleep(20_000)
            }
        }
    }

    /// The slave's path, which the fake dev's `gnss0` links to.
    package var slavePath: String { terminal.slavePath }

    deinit {
        stopped.value.store(true, ordering: .relaxed)
        terminal.hangUp()
    }
}
