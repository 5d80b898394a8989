/// One generic netlink message: the netlink header, the generic header (`struct genlmsghdr`: command, version) and
/// the attribute region that follows (`linux/genetlink.h`).
package struct GenericNetlinkMessage: Hashable, Sendable {
    /// The size of `struct genlmsghdr` in bytes.
    package static let genericHeaderSize = 4

    /// The netlink header; its type is the family's id.
    package var header: NetlinkMessageHeader
    /// The family's command (`CTRL_CMD_NEWFAMILY`, `NL80211_CMD_CONNECT`, …).
    package var command: UInt8
    /// The family's interface version the sender used.
    package var version: UInt8
    /// The attributes (`struct nlattr` list) after the generic header, as the kernel sent them.
    package var attributes: [UInt8]

    /// Creates a message from its parts.
    package init(header: NetlinkMessageHeader, command: UInt8, version: UInt8, attributes: [UInt8]) {
        self.header = header
        self.command = command
        self.version = version
        self.attributes = attributes
    }

    /// Parses the attribute region and hands it to `body`; `nil` when an attribute's length lies.
    func withAttributes<Result>(_ body: (RouteAttributes) -> Result?) -> Result? {
        attributes.withUnsafeBytes { raw in
            let bytes = NetlinkBytes(raw)
            guard let parsed = RouteAttributes(bytes, range: 0..<bytes.count) else { return nil }
            return body(parsed)
        }
    }

    /// The bytes of a request: the netlink header, the generic header and `attributes` (already encoded).
    ///
    /// - Parameters:
    ///   - family: The family's id (the message type).
    ///   - command: The family's command.
    ///   - version: The family's interface version.
    ///   - flags: `NLM_F_REQUEST` is added; pass `NLM_F_DUMP` or `NLM_F_ACK`.
    ///   - sequence: The sequence number the replies will carry.
    ///   - attributes: The encoded attributes (see ``NetlinkAttributeWriter``).
    package static func request(
        family: UInt16, command: UInt8, version: UInt8, flags: UInt16, sequence: UInt32,
        attributes: [UInt8] = []
    ) -> [UInt8] {
        let length = NetlinkMessageHeader.size + genericHeaderSize + attributes.count
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        bytes.appendLittleEndian(UInt32(length))
        bytes.appendLittleEndian(family)
        bytes.appendLittleEndian(flags | requestFlag)
        bytes.appendLittleEndian(sequence)
        // nl_pid 0: the kernel fills in the socket's port.
        bytes.appendLittleEndian(UInt32(0))
        bytes += [command, version, 0, 0]
        return bytes + attributes
    }

    /// `NLM_F_REQUEST`.
    package static let requestFlag: UInt16 = 0x1
    /// `NLM_F_ACK`: ask for an acknowledgement (an `NLMSG_ERROR` with code 0).
    package static let acknowledgeFlag: UInt16 = 0x4
    /// `NLM_F_DUMP` (`NLM_F_ROOT | NLM_F_MATCH`): ask for every object.
    package static let dumpFlag: UInt16 = 0x300
}

/// Encodes netlink attributes (`struct nlattr`: length, type, value padded to 4 bytes) in host byte order.
package struct NetlinkAttributeWriter {
    /// The encoded attributes.
    package private(set) var bytes: [UInt8] = []

    /// Creates an empty list.
    package init() {}

    /// Appends one attribute holding `value` as it is.
    package mutating func append(_ type: UInt16, bytes value: [UInt8]) {
        let length = 4 + value.count
        bytes.appendLittleEndian(UInt16(clamping: length))
        bytes.appendLittleEndian(type)
        bytes += value
        bytes += [UInt8](repeating: 0, count: NetlinkBytes.align(length) - length)
    }

    /// Appends a 32-bit attribute.
    package mutating func append(_ type: UInt16, uint32 value: UInt32) {
        var encoded: [UInt8] = []
        encoded.appendLittleEndian(value)
        append(type, bytes: encoded)
    }

    /// Appends a NUL-terminated string attribute (`NLA_NUL_STRING`, `NLA_STRING`).
    package mutating func append(_ type: UInt16, string value: String) {
        append(type, bytes: Array(value.utf8) + [0])
    }

    /// Appends a nested attribute (`NLA_F_NESTED` set) holding what `body` writes.
    package mutating func appendNested(_ type: UInt16, _ body: (inout NetlinkAttributeWriter) -> Void) {
        var inner = NetlinkAttributeWriter()
        body(&inner)
        append(type | Self.nestedFlag, bytes: inner.bytes)
    }

    /// `NLA_F_NESTED`.
    package static let nestedFlag: UInt16 = 0x8000
}

extension [UInt8] {
    /// Appends `value` in little-endian byte order, which is the host order on every platform Vigil builds for.
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
