/// The attributes of an rtnetlink message (`struct rtattr` list, rtnetlink(7)), by type.
///
/// Each type maps to the byte range of its payload in the buffer; a later duplicate overrides an earlier one, as the
/// kernel never sends duplicates for the attributes Vigil reads.
struct RouteAttributes {
    private(set) var payloads: [UInt16: Range<Int>] = [:]
    let bytes: NetlinkBytes

    /// Parses the attributes in `range`, or returns `nil` when an attribute's length is impossible.
    init?(_ bytes: NetlinkBytes, range: Range<Int>) {
        self.bytes = bytes
        var offset = range.lowerBound
        while range.upperBound - offset >= 4 {
            guard let length = bytes.load(UInt16.self, at: offset),
                let rawType = bytes.load(UInt16.self, at: offset + 2),
                length >= 4, Int(length) <= range.upperBound - offset
            else { return nil }
            // NLA_F_NESTED and NLA_F_NET_BYTEORDER live in the top two bits of the type.
            payloads[rawType & 0x3FFF] = offset + 4..<offset + Int(length)
            offset += NetlinkBytes.align(Int(length))
        }
    }

    subscript(type: UInt16) -> Range<Int>? { payloads[type] }

    func uint32(_ type: UInt16) -> UInt32? {
        guard let range = payloads[type], range.count >= 4 else { return nil }
        return bytes.load(UInt32.self, at: range.lowerBound)
    }

    func uint8(_ type: UInt16) -> UInt8? {
        guard let range = payloads[type], range.count >= 1 else { return nil }
        return bytes.load(UInt8.self, at: range.lowerBound)
    }

    func string(_ type: UInt16) -> String? {
        guard let range = payloads[type] else { return nil }
        return bytes.string(range)
    }

    func raw(_ type: UInt16) -> [UInt8]? {
        guard let range = payloads[type] else { return nil }
        return bytes.bytes(range)
    }
}
