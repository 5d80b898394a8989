import Glibc
import Testing

/// A loopback TCP port that nothing listens on and nothing else can take while this lives: a socket is bound to it
/// and never listens, so connecting is refused.
///
/// A port found free and let go (``freeLoopbackPort()``) may be taken a moment later by another test's server, which
/// binds port 0, or by a client's own ephemeral port, which then connects to itself; the kernel hands out neither
/// while the port stays bound.
package final class ReservedLoopbackPort {
    private let fd: Int32
    /// The port, in host order.
    package let port: UInt16

    package init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0, "socket: errno \(errno)")
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            bind(fd, $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { $0 }, 16)
        }
        guard bound == 0 else {
            close(fd)
            throw ReservationFailed(errno: errno)
        }
        self.fd = fd
        port = localPort(of: fd)
    }

    deinit { close(fd) }

    /// Why no port could be bound.
    package struct ReservationFailed: Error {
        package let errno: Int32
    }
}
