import Foundation
import Glibc
import Testing
import VigilSensors

/// A blocking TCP client on loopback for the server tests, every wait bounded by a receive timeout.
package final class LoopbackClient {
    package let fd: Int32
    /// The TLS session, for a client made with a TLS context.
    private var tls: TLSSession?
    /// Why the TLS session failed, once it has.
    package private(set) var tlsError: TLSError?

    /// One parsed response.
    package struct Response {
        package var status: Int
        package var headers: [String: String]
        package var body: String
        /// The body's exact bytes (a gzip body is not text).
        package var bytes: [UInt8] = []
        /// The first line as sent, such as `HTTP/1.1 200 OK`.
        package var statusLine = ""
    }

    /// Connects to `127.0.0.1:port`; receives wait at most `timeout` seconds. With `tls`, speaks TLS (the handshake
    /// runs with the first send) and checks that the server's certificate names `serverName`.
    package init(port: UInt16, timeout: Int = 10, tls: TLSContext? = nil, serverName: String = "localhost") throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(descriptor >= 0)
        // Owned by the object from here on: closed by deinit, which Swift runs even when this initializer throws
        // later (every property is set by then). Never closed here too: a second close would take whatever
        // descriptor another thread opened in between.
        fd = descriptor
        self.tls = nil
        var wait = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        // Thrown, not recorded: callers that poll a server that is still starting retry on it.
        if connected != 0 { throw ConnectionRefused(errno: errno) }
        self.tls = try tls.map { context throws(TLSError) in
            try TLSSession(context: context, socket: descriptor, isServer: false, serverName: serverName)
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
        if let tls {
            var offset = 0
            while offset < bytes.count {
                do throws(TLSError) {
                    guard case .bytes(let count) = try tls.write(bytes[offset...]) else { return false }
                    offset += count
                } catch {
                    tlsError = error
                    return false
                }
            }
            return true
        }
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
            let count = chunk.withUnsafeMutableBytes { receive(into: $0) }
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { receive(into: $0) }
        guard count > 0 else { return false }
        buffer += chunk[0..<count]
        return true
    }

    /// `recv(2)`, or a TLS read: the count, 0 at end of stream, -1 on a timeout or failure.
    private func receive(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let tls else { return recv(fd, buffer.baseAddress, buffer.count, 0) }
        do throws(TLSError) {
            switch try tls.read(into: buffer.baseAddress!, count: buffer.count) {
            case .bytes(let count): return count
            case .closed: return 0
            case .wantsReadable, .wantsWritable: return -1
            }
        } catch {
            tlsError = error
            return -1
        }
    }

    private func takeResponse(head: Bool) -> Response? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = buffer.indices.first(where: { buffer[$0...].starts(with: separator) }) else { return nil }
        let text = String(decoding: buffer[..<end], as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")
        let firstLine = lines.removeFirst()
        let statusLine = firstLine.split(separator: " ")
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
        let bytes = Array(buffer[bodyStart..<(bodyStart + length)])
        buffer.removeFirst(bodyStart + length)
        return Response(
            status: status, headers: headers, body: String(decoding: bytes, as: UTF8.self), bytes: bytes,
            statusLine: firstLine)
    }
}

/// `connect(2)` failed with `errno`.
package struct ConnectionRefused: Error {
    package let errno: Int32
}
