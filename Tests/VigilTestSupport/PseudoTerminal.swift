import CVigilTestSupport
import Glibc
import Synchronization

/// A pseudo-terminal standing in for a serial GNSS receiver: the test writes the receiver's bytes to the master, the
/// source opens the slave by its path (or a link to it in a fake `/dev`).
///
/// The slave is set raw (no line editing, no echo) and one descriptor of it is kept open, so the terminal lives on
/// while the source closes and reopens it; ``hangUp()`` closes the master, as a receiver that is unplugged.
///
/// A writer may run on a thread of its own while another hangs up, so the master is never closed under a write: each
/// write is non-blocking and made under the lock that ``hangUp()`` closes under, and a writer waits for room outside
/// it, woken by the hang-up too. (Closing it under a blocked `write(2)` let the writer go on with the number after
/// another test had reopened it.)
package final class PseudoTerminal: Sendable {
    /// The master, -1 once hung up.
    private let master: Mutex<Int32>
    private let slave: Int32
    /// Made readable by ``hangUp()``, to wake a writer waiting for room.
    private let hungUp: (read: Int32, write: Int32)
    /// The slave's path, `/dev/pts/N`.
    package let slavePath: String

    /// Opens a new pseudo-terminal (`posix_openpt(3)`), nil when the system has none free.
    package init?() {
        var name = [CChar](repeating: 0, count: 128)
        let master = vigil_test_open_pseudo_terminal(&name, name.count)
        guard master >= 0 else { return nil }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let slave = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0, let made = closeOnExecPipe() else {
            close(master)
            if slave >= 0 { close(slave) }
            return nil
        }
        let ends = [made.read, made.write]
        var settings = termios()
        tcgetattr(slave, &settings)
        cfmakeraw(&settings)
        tcsetattr(slave, TCSANOW, &settings)
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        self.master = Mutex(master)
        self.slave = slave
        hungUp = (ends[0], ends[1])
        slavePath = path
    }

    deinit {
        hangUp()
        close(slave)
        close(hungUp.read)
        close(hungUp.write)
    }

    /// Writes every byte to the master, waiting while the terminal's buffer is full; false once hung up.
    @discardableResult
    package func write(_ bytes: some Collection<UInt8>) -> Bool {
        let all = Array(bytes)
        var offset = 0
        while offset < all.count {
            let (written, failure, descriptor) = master.withLock { master -> (Int, Int32, Int32) in
                guard master >= 0 else { return (-1, EBADF, master) }
                let written = all[offset...].withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
                return (written, written < 0 ? errno : 0, master)
            }
            if written >= 0 {
                offset += written
                continue
            }
            guard failure == EINTR || failure == EAGAIN, descriptor >= 0 else { return false }
            if failure == EAGAIN, !waitForRoom(descriptor) { return false }
        }
        return true
    }

    /// Waits until the master takes more or the terminal is hung up; false once hung up. Polling a number that a
    /// hang-up closed meanwhile only wakes early: the write that follows is made under the lock again.
    private func waitForRoom(_ descriptor: Int32) -> Bool {
        var watched = [
            pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0),
            pollfd(fd: hungUp.read, events: Int16(POLLIN), revents: 0),
        ]
        while poll(&watched, 2, -1) < 0 && errno == EINTR {}
        return watched[1].revents == 0
    }

    /// Closes the master: the slave's reader gets `EIO`, as from an unplugged receiver.
    package func hangUp() {
        var one: UInt8 = 1
        _ = Glibc.write(hungUp.write, &one, 1)
        master.withLock { master in
            if master >= 0 { close(master) }
            master = -1
        }
    }
}
