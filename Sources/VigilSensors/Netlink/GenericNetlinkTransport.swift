import CLinuxSupport
import Glibc

/// What a ``GenericNetlinkClient`` talks through: a netlink socket, or in tests a scripted replay of the kernel's
/// answers.
///
/// Called by one transaction at a time, on the client's calling thread.
package protocol GenericNetlinkTransport: AnyObject, Sendable {
    /// What the transport reaches, for error messages, for example `NETLINK_GENERIC`.
    var target: String { get }
    /// Sends one request. Wraps `sendto(2)`.
    func send(_ bytes: [UInt8]) throws(SensorError)
    /// Receives one datagram into `buffer` without blocking. Wraps `recvmsg(2)`.
    func receive(into buffer: UnsafeMutableRawBufferPointer) throws(SensorError) -> NetlinkReceived
    /// Waits until a datagram is pending or `timeout` has passed; returns whether one is. Wraps `poll(2)`.
    func waitForInput(timeout: Duration) throws(SensorError) -> Bool
}

extension NetlinkSocket: GenericNetlinkTransport {
    /// Waits until the socket is readable or `timeout` has passed. Wraps `poll(2)`.
    func waitForInput(timeout: Duration) throws(SensorError) -> Bool {
        var descriptor = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
        let (seconds, attoseconds) = timeout.components
        let milliseconds = Int32(clamping: max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
        do {
            return try retryingOnInterrupt("poll") { poll(&descriptor, 1, milliseconds) } > 0
        } catch {
            throw SensorError.from(error, call: "poll", path: target)
        }
    }
}
