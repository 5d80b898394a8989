/// The fixed header of one netlink message (`struct nlmsghdr`, netlink(7)).
package struct NetlinkMessageHeader: Hashable, Sendable {
    /// The size of `struct nlmsghdr` in bytes.
    static let size = 16

    /// The length of the message, header included.
    package var length: UInt32
    /// The message type, for example `RTM_NEWLINK` or `NLMSG_DONE`.
    package var type: UInt16
    /// The `NLM_F_*` flags.
    package var flags: UInt16
    /// The sequence number the requester chose; `0` for notifications.
    package var sequence: UInt32
    /// The port of the requester whose request caused the message (not the sender: see ``NetlinkSender``).
    package var port: UInt32

    /// Creates a header from its fields.
    package init(length: UInt32, type: UInt16, flags: UInt16, sequence: UInt32, port: UInt32) {
        self.length = length
        self.type = type
        self.flags = flags
        self.sequence = sequence
        self.port = port
    }

    /// `NLM_F_MULTI`: part of a multi-part reply (a dump).
    package static let multipartFlag: UInt16 = 0x2
    /// `NLM_F_DUMP_INTR`: the kernel's tables changed during the dump, so its result is inconsistent.
    package static let dumpInterruptedFlag: UInt16 = 0x10

    /// Whether the kernel marked this dump reply as interrupted (`NLM_F_DUMP_INTR`).
    package var isDumpInterrupted: Bool { flags & Self.dumpInterruptedFlag != 0 }

    /// Splits a datagram into its messages: each header with the byte range of its payload.
    ///
    /// A message whose length field is shorter than a header or runs past the end of the buffer ends the walk and is
    /// counted in `malformed` (the rest of the datagram cannot be framed).
    static func split(_ bytes: NetlinkBytes) -> (messages: [(NetlinkMessageHeader, Range<Int>)], malformed: Int) {
        var messages: [(NetlinkMessageHeader, Range<Int>)] = []
        var offset = 0
        while offset < bytes.count {
            guard let length = bytes.load(UInt32.self, at: offset),
                let type = bytes.load(UInt16.self, at: offset + 4),
                let flags = bytes.load(UInt16.self, at: offset + 6),
                let sequence = bytes.load(UInt32.self, at: offset + 8),
                let port = bytes.load(UInt32.self, at: offset + 12),
                length >= UInt32(size), Int(length) <= bytes.count - offset
            else { return (messages, 1) }
            let header = NetlinkMessageHeader(
                length: length, type: type, flags: flags, sequence: sequence, port: port)
            messages.append((header, offset + size..<offset + Int(length)))
            offset += NetlinkBytes.align(Int(length))
        }
        return (messages, 0)
    }
}
