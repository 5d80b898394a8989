import CVigilTestSupport
import Dispatch
import Glibc
import Testing
import Vigil

/// A loopback listener that plays a broken broker, to show that a publisher survives it.
package final class FakeBroker: Sendable {
    /// How the fake broker misbehaves on each connection.
    package enum Behavior: String, Sendable, CaseIterable, CustomTestStringConvertible {
        /// Answers CONNECT with bytes that are not MQTT.
        case garbage
        /// Sends the first byte of a CONNACK, then closes.
        case closesMidPacket
        /// Accepts CONNECT with a CONNACK, then never reads nor answers again.
        case neverReads
        /// Accepts CONNECT, then pushes QoS 1 PUBLISH packets as fast as the socket takes them and never reads.
        case pushesAndNeverReads
        /// Accepts CONNECT, then closes at once: a session taken over by another client with the same ID.
        case endsEachSession
        /// Answers CONNECT with CONNACK return code 4, bad user name or password.
        case refusesCredentials

        /// The ones a publisher survives by reconnecting, each with the reason it gives.
        package static let survivable: [Behavior] = [.garbage, .closesMidPacket, .neverReads]

        package var testDescription: String { rawValue }
    }

    package let port: UInt16
    private let listener: Int32
    private let behavior: Behavior
    private let state = FutexMutex<(accepted: Int, stopped: Bool, open: [Int32])>((0, false, []))
    private let finished = DispatchSemaphore(value: 0)

    /// Listens on a free loopback port and serves connections on a Dispatch thread until ``stop()``.
    package init(_ behavior: Behavior) throws {
        self.behavior = behavior
        let fd = socket(
            AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, 4)
        // Port 0: the kernel picks a free port and it stays ours (no window for another socket to take it).
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            bind(fd, $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { $0 }, 16)
        }
        try #require(bound == 0 && listen(fd, 8) == 0)
        listener = fd
        port = localPort(of: fd)
        TestThread.detach { [self] in serve() }
    }

    /// Stops serving and closes every socket; call it once, at the end of the test.
    package func stop() {
        state.withLock { $0.stopped = true }
        finished.wait()
        for fd in state.withLock({ $0.open }) { close(fd) }
        close(listener)
    }

    /// Connections accepted so far.
    package var accepted: Int { state.withLock { $0.accepted } }

    private func serve() {
        defer { finished.signal() }
        while !state.withLock({ $0.stopped }) {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let connection = vigil_test_accept(listener)
            guard connection >= 0 else { continue }
            state.withLock { $0.accepted += 1 }
            misbehave(on: connection)
        }
    }

    private func misbehave(on connection: Int32) {
        // Wait (bounded) for the client's CONNECT so the answer comes after it.
        var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
        _ = poll(&poller, 1, 2000)
        switch behavior {
        case .garbage:
            var scratch = [UInt8](repeating: 0, count: 1024)
            _ = read(connection, &scratch, scratch.count)
            send(connection, Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8))
            close(connection)
        case .closesMidPacket:
            var scratch = [UInt8](repeating: 0, count: 1024)
            _ = read(connection, &scratch, scratch.count)
            send(connection, [0x20])
            close(connection)
        case .neverReads:
            // CONNACK without reading the CONNECT, then silence; the socket stays open (closed on release).
            send(connection, [0x20, 0x02, 0x00, 0x00])
            var small: Int32 = 4096
            setsockopt(connection, SOL_SOCKET, SO_RCVBUF, &small, 4)
            state.withLock { $0.open.append(connection) }
        case .pushesAndNeverReads:
            send(connection, [0x20, 0x02, 0x00, 0x00])
            var small: Int32 = 4096
            setsockopt(connection, SOL_SOCKET, SO_RCVBUF, &small, 4)
            push(on: connection)
            close(connection)
        case .endsEachSession:
            var scratch = [UInt8](repeating: 0, count: 1024)
            _ = read(connection, &scratch, scratch.count)
            send(connection, [0x20, 0x02, 0x00, 0x00])
            close(connection)
        case .refusesCredentials:
            var scratch = [UInt8](repeating: 0, count: 1024)
            _ = read(connection, &scratch, scratch.count)
            send(connection, [0x20, 0x02, 0x00, 0x04])
            close(connection)
        }
    }

    /// QoS 1 PUBLISH packets (topic `t`, one byte of payload), 8192 at a time, for as long as the client takes them
    /// (at most 256 MiB), until it closes or the broker stops.
    private func push(on connection: Int32) {
        var batch: [UInt8] = []
        for id in 1...8192 { batch += [0x32, 0x06, 0x00, 0x01, 0x74, UInt8(id >> 8), UInt8(id & 0xFF), 0x78] }
        var total = 0
        // Where the next send starts in the batch, so a partial send never cuts a packet from the stream.
        var offset = 0
        while total < 256 << 20, !state.withLock({ $0.stopped }) {
            var poller = pollfd(fd: connection, events: Int16(POLLOUT), revents: 0)
            guard poll(&poller, 1, 50) >= 0 else { return }
            if poller.revents & Int16(POLLERR | POLLHUP) != 0 { return }
            guard poller.revents & Int16(POLLOUT) != 0 else { continue }
            let sent = batch.withUnsafeBytes {
                Glibc.send(
                    connection, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if sent < 0 && errno != EAGAIN { return }
            total += max(sent, 0)
            offset = (offset + max(sent, 0)) % batch.count
        }
    }

    private func send(_ connection: Int32, _ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}
