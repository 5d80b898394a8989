import Glibc

/// An IPv4 or IPv6 address as the kernel reports it.
public struct IPAddress: Hashable, Sendable, Comparable, Encodable, CustomStringConvertible {
    /// The address family.
    public enum Family: String, Hashable, Sendable, Comparable, Encodable, CustomStringConvertible {
        /// IPv4 (`AF_INET`), 4 bytes.
        case ipv4
        /// IPv6 (`AF_INET6`), 16 bytes.
        case ipv6

        /// Maps an `AF_*` value; `nil` for other families.
        init?(addressFamily: UInt8) {
            switch Int32(addressFamily) {
            case AF_INET: self = .ipv4
            case AF_INET6: self = .ipv6
            default: return nil
            }
        }

        /// The number of bytes of an address of this family.
        public var byteCount: Int { self == .ipv4 ? 4 : 16 }

        public var description: String { rawValue }

        public static func < (lhs: Family, rhs: Family) -> Bool { lhs == .ipv4 && rhs == .ipv6 }
    }

    /// The address family.
    public let family: Family
    /// The address in network byte order.
    public let bytes: [UInt8]

    /// Creates an address, or `nil` when `bytes` has the wrong length for `family`.
    public init?(family: Family, bytes: [UInt8]) {
        guard bytes.count == family.byteCount else { return nil }
        self.family = family
        self.bytes = bytes
    }

    /// The conventional text form (`inet_ntop(3)`), for example `192.0.2.1` or `2001:db8::1`.
    public var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let addressFamily = family == .ipv4 ? AF_INET : AF_INET6
        let converted = bytes.withUnsafeBytes { raw in
            inet_ntop(addressFamily, raw.baseAddress, &text, socklen_t(text.count))
        }
        guard converted != nil else { return bytes.map { String($0) }.joined(separator: ".") }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public static func < (lhs: IPAddress, rhs: IPAddress) -> Bool {
        if lhs.family != rhs.family { return lhs.family < rhs.family }
        return lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
