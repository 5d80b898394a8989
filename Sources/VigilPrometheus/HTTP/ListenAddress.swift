import Glibc

/// Where a ``MetricsServer`` listens: an IPv4 or IPv6 address and a TCP port.
///
/// Written `ADDRESS:PORT`, an IPv6 address in brackets (`127.0.0.1:9464`, `0.0.0.0:9464`, `[::1]:9464`). No host
/// name is looked up: the address says exactly which interface is exposed, and the default is loopback only.
public struct ListenAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address in its textual form, without brackets (`127.0.0.1`, `::1`).
    public let host: String
    /// The TCP port; 0 lets the kernel choose a free one (see ``MetricsServer/port``).
    public let port: UInt16

    /// Loopback on Prometheus' port for this exporter: `127.0.0.1:9464`.
    public static let loopback = ListenAddress(validHost: "127.0.0.1", port: 9464)

    private init(validHost: String, port: UInt16) {
        host = validHost
        self.port = port
    }

    /// An address from its parts.
    ///
    /// - Parameters:
    ///   - host: An IPv4 or IPv6 address in numeric form.
    ///   - port: The TCP port, 0 for any free one.
    /// - Throws: ``MetricsServerError/invalidAddress(_:reason:)`` for a host that is not a numeric address.
    public init(host: String, port: UInt16) throws(MetricsServerError) {
        guard Self.family(of: host) != nil else {
            throw .invalidAddress(host, reason: "not a numeric IPv4 or IPv6 address (host names are not looked up)")
        }
        self.init(validHost: host, port: port)
    }

    /// An address written `ADDRESS:PORT` or `[IPV6]:PORT`.
    ///
    /// - Parameter text: The address and port.
    /// - Throws: ``MetricsServerError/invalidAddress(_:reason:)`` when it is not of that form.
    public init(parsing text: String) throws(MetricsServerError) {
        let host: Substring
        let port: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw .invalidAddress(text, reason: "write an IPv6 address as [ADDRESS]:PORT")
            }
            host = text[text.index(after: text.startIndex)..<close]
            port = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else {
                throw .invalidAddress(text, reason: "write ADDRESS:PORT, for example 127.0.0.1:9464")
            }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard !port.isEmpty, port.allSatisfy(\.isASCII), let number = UInt16(port) else {
            throw .invalidAddress(text, reason: "the port must be a number from 0 to 65535")
        }
        try self.init(host: String(host), port: number)
    }

    /// `127.0.0.1:9464`, or `[::1]:9464` for IPv6.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// `AF_INET` or `AF_INET6` for a numeric address, nil otherwise.
    static func family(of host: String) -> Int32? {
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return AF_INET }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 { return AF_INET6 }
        return nil
    }
}
