import Glibc
import VigilSensors

/// The server's sockets: the listener and the address of a peer, for log lines.
extension FileDescriptor {
    /// A non-blocking TCP socket listening on `address`.
    ///
    /// Wraps `socket(2)`, `setsockopt(2)` (`SO_REUSEADDR`, and `IPV6_V6ONLY` for IPv6), `bind(2)` and `listen(2)`.
    static func listening(on address: ListenAddress, backlog: Int32) throws(MetricsServerError) -> FileDescriptor {
        guard let family = ListenAddress.family(of: address.host) else {
            throw .invalidAddress(address.description, reason: "not a numeric address")
        }
        let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let raw = Glibc.socket(family, flags, 0)
        guard raw >= 0 else { throw failure("socket", address) }
        let socket = FileDescriptor(raw)
        var one: Int32 = 1
        _ = setsockopt(raw, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var storage = sockaddr_storage()
        let length: socklen_t
        if family == AF_INET {
            var v4 = sockaddr_in()
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = address.port.bigEndian
            _ = inet_pton(AF_INET, address.host, &v4.sin_addr)
            withUnsafeBytes(of: v4) { bytes in
                withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: bytes) }
            }
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
        } else {
            _ = setsockopt(raw, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size))
            var v6 = sockaddr_in6()
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = address.port.bigEndian
            _ = inet_pton(AF_INET6, address.host, &v6.sin6_addr)
            withUnsafeBytes(of: v6) { bytes in
                withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: bytes) }
            }
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        }
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(raw, $0, length) }
        }
        guard bound == 0 else { throw failure("bind", address) }
        guard Glibc.listen(raw, backlog) == 0 else { throw failure("listen", address) }
        return socket
    }

    /// The local port the socket is bound to (`getsockname(2)`), 0 if unknown.
    var localPort: UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(rawValue, $0, &length) }
        }
        guard result == 0 else { return 0 }
        return Self.port(of: storage)
    }

    /// `ADDRESS:PORT` of a socket address, for log lines.
    static func describe(_ storage: sockaddr_storage) -> String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        var copy = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &copy) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    var raw = address.pointee.sin_addr
                    inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
                    return Self.string(text) + ":\(UInt16(bigEndian: address.pointee.sin_port))"
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &copy) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    var raw = address.pointee.sin6_addr
                    inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
                    return "[" + Self.string(text) + "]:\(UInt16(bigEndian: address.pointee.sin6_port))"
                }
            }
        default:
            return "an unknown peer"
        }
    }

    /// The text of a NUL-terminated buffer.
    private static func string(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func port(of storage: sockaddr_storage) -> UInt16 {
        var copy = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &copy) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
            }
        case AF_INET6:
            return withUnsafePointer(to: &copy) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
        default:
            return 0
        }
    }

    private static func failure(_ call: String, _ address: ListenAddress) -> MetricsServerError {
        .systemCall(name: call, address: address.description, error: Errno.current.description)
    }
}
