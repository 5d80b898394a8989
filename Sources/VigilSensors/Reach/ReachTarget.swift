import Glibc

/// One host `reach` watches: a name or an IPv4 or IPv6 literal, and an optional TCP port.
///
/// Written as on a command line: `example.org`, `example.org:443`, `10.0.0.1`, `10.0.0.1:22`, `2001:db8::1` (a bare
/// IPv6 literal takes no port) or `[2001:db8::1]:443`.
public struct ReachTarget: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// The host as written: a name, or an address literal.
    public var host: String
    /// The TCP port to probe, if one was given.
    public var port: Int?

    /// Creates a target from its parts.
    public init(host: String, port: Int? = nil) {
        self.host = host
        self.port = port
    }

    /// Parses a target as written on a command line.
    ///
    /// - Parameter text: `HOST`, `HOST:PORT`, an IPv6 literal, or `[IPV6]:PORT`.
    /// - Throws: ``SensorError/invalidArgument(name:value:reason:)`` for an empty host, a port that is not 1–65535,
    ///   an unclosed bracket, an address with a zone (`fe80::1%eth0`), or a name with characters no host name has
    ///   (white space, `/`, control characters).
    public init(parsing text: String) throws(SensorError) {
        func invalid(_ reason: String) -> SensorError {
            .invalidArgument(name: "reach target", value: text, reason: reason)
        }
        // A zone would have to bind the route lookup and the probe to its interface; unbound, the answer could be
        // another interface's, so such a target is refused rather than answered wrongly.
        guard !text.contains("%") else {
            throw invalid("an address with a zone (fe80::1%eth0) is not supported; write the address without it")
        }
        var host = Substring(text)
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { throw invalid("an IPv6 literal in [ ] needs its ]") }
            let inside = host[host.index(after: host.startIndex)..<close]
            let rest = host[host.index(after: close)...]
            guard IPAddress(literal: String(inside))?.family == .ipv6 else {
                throw invalid("[ ] holds an IPv6 address")
            }
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw invalid("after ] comes :PORT") }
                portText = rest.dropFirst()
            }
            host = inside
        } else if host.filter({ $0 == ":" }).count == 1, let colon = host.firstIndex(of: ":") {
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
        } else if host.contains(":"), IPAddress(literal: String(host)) == nil {
            throw invalid("an IPv6 address with a port is written [ADDRESS]:PORT")
        }
        guard !host.isEmpty else { throw invalid("the host is empty") }
        guard host.utf8.count <= 253,
            host.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F && $0 != "/" && $0 != "[" })
        else { throw invalid("a host is a name of at most 253 characters without spaces, or an address") }
        if let portText {
            guard let port = Int(portText), (1...65535).contains(port) else {
                throw invalid("the port is a number from 1 to 65535")
            }
            self.port = port
        }
        self.host = String(host)
    }

    /// The host as an address when it is an IPv4 or IPv6 literal, else nil (a name to resolve).
    public var literalAddress: IPAddress? { IPAddress(literal: host) }

    /// `host`, `host:port`, or `[v6]:port`.
    public var description: String {
        guard let port else { return host }
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension IPAddress {
    /// Parses an IPv4 (dotted quad) or IPv6 literal with `inet_pton(3)`; nil for anything else.
    public init?(literal text: String) {
        var buffer = [UInt8](repeating: 0, count: 16)
        for family in [Family.ipv4, .ipv6] {
            let converted = buffer.withUnsafeMutableBytes { raw in
                inet_pton(family == .ipv4 ? AF_INET : AF_INET6, text, raw.baseAddress)
            }
            if converted == 1 {
                self.init(family: family, bytes: Array(buffer.prefix(family.byteCount)))
                return
            }
        }
        return nil
    }
}
