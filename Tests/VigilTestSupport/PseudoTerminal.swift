import CVigilTestSupport
import Glibc
import Synchronization

/// A pseudo-terminal standing in for a serial GNSS receiver: the test writes the receiver's bytes to the master, the
/// source opens the slave by its path (or a link to it in a fake `/dev`).
///
/// The slave is set raw (no line editing, no echo) and one descriptor of it is kept open, so the terminal lives on
/// while the source closes and reopens it; ``hangUp()`` closes the master, as a receiver that is unplugged.
package final class PseudoTerminal: Sendable {
    private let master: Atomic<Int32>
    private let slave: Int32
    /// The slave's path, `/dev/pts/N`.
    package let slavePath: String

    /// Opens a new pseudo-terminal (`posix_openpt(3)`), nil when the system has none free.
    package init?() {
        var name = [CChar](repeating: 0, count: 128)
        let master = vigil_test_open_pseudo_terminal(&name, name.count)
        guard master >= 0 else { return nil }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let slave = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else {
            close(master)
            return nil
        }
        var settings = termios()
        tcgetattr(slave, &settings)
        cfmakeraw(&settings)
        tcsetattr(slave, TCSANOW, &settings)
        self.master = Atomic(master)
        self.slave = slave
        slavePath = path
    }

    deinit {
        hangUp()
        close(slave)
    }

    /// Writes every byte to the master, waiting while the terminal's buffer is full; false once hung up.
    @discardableResult
    package func write(_ bytes: some Collection<UInt8>) -> Bool {
        let descriptor = master.load(ordering: .acquiring)
        guard descriptor >= 0 else { return false }
        let all = Array(bytes)
        var offset = 0
        while offset < all.count {
            let written = all[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// Closes the master: the slave's reader gets `EIO`, as from an unplugged receiver.
    package func hangUp() {
        let descriptor = master.exchange(-1, ordering: .acquiringAndReleasing)
        if descriptor >= 0 { close(descriptor) }
    }
}
