import Foundation
import Glibc
import Testing

/// A blocking TCP client on loopback for the server tests, every wait bounded by a receive timeout.
package final class LoopbackClient {
    package let fd: Int32

    /// One parsed response.
    package struct Response {
        package var status: Int
        package var headers: [String: String]
        package var body: String
    }

    /// Connects to `127.0.0.1:port`; receives wait at most `timeout` seconds.
    package init(port: UInt16, timeout: Int = 10) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0)
        var wait = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        // Thrown, not recorded: callers that poll a server that is still starting retry on it.
        if connected != 0 {
            let error = errno
            close(fd)
            throw ConnectionRefused(errno: error)
        }
    }

    deinit { close(fd) }

    /// Sends all of `text`; false if the peer closed.
    @discardableResult
    package func send(_ text: String) -> Bool {
        send(Array(text.utf8))
    }

    @discardableResult
    package func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(0x4000))  // MSG_NOSIGNAL
            }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    private var buffer: [UInt8] = []

    /// Reads one response; nil when the connection closed (or the wait timed out) first.
    package func readResponse(head: Bool = false) -> Response? {
        while true {
            if let response = takeResponse(head: head) { return response }
            guard fill() else { return nil }
        }
    }

    /// Whether the server closed the connection (end of file) within the receive timeout.
    package func waitForClose() -> Bool {
        while true {
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        buffer += chunk[0..<count]
        return true
    }

    private func takeResponse(head: Bool) -> Response? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = buffer.indices.first(where: { buffer[$0...].starts(with: separator) }) else { return nil }
        let text = String(decoding: buffer[..<end], as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let length = head ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        let bodyStart = end + 4
        guard buffer.count >= bodyStart + length else { return nil }
        let body = String(decoding: buffer[bodyStart..<(bodyStart + length)], as: UTF8.self)
        buffer.removeFirst(bodyStart + length)
        return Response(status: status, headers: headers, body: body)
    }
}

/// `connect(2)` failed with `errno`.
package struct ConnectionRefused: Error {
    package let errno: Int32
}
