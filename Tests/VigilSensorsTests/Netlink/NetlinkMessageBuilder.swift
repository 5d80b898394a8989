import CLinuxSupport
import Glibc

/// Builds netlink datagrams byte by byte, as the kernel lays them out, for parser tests.
struct NetlinkMessageBuilder {
    private(set) var bytes: [UInt8] = []

    static func attribute(_ type: UInt16, _ payload: [UInt8]) -> [UInt8] {
        var out = le(UInt16(4 + payload.count)) + le(type) + payload
        while out.count % 4 != 0 { out.append(0) }
        return out
    }

    /// An `IFLA_STATS64` (`fieldSize` 8) or `IFLA_STATS` (4) attribute holding `fields` in the kernel's order:
    /// `rx_packets, tx_packets, rx_bytes, tx_bytes, rx_errors, tx_errors, rx_dropped, tx_dropped, …`.
    static func statistics(_ fields: [UInt64], fieldSize: Int = 8) -> [UInt8] {
        let payload = fields.flatMap { fieldSize == 8 ? le($0) : le(UInt32(truncatingIfNeeded: $0)) }
        return attribute(UInt16(fieldSize == 8 ? IFLA_STATS64 : IFLA_STATS), payload)
    }

    static func attribute(_ type: UInt16, string: String) -> [UInt8] { attribute(type, Array(string.utf8) + [0]) }

    static func attribute(_ type: UInt16, uint32 value: UInt32) -> [UInt8] { attribute(type, le(value)) }

    static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    mutating func append(type: UInt16, flags: UInt16 = 0, sequence: UInt32 = 0, body: [UInt8]) {
        var message =
            Self.le(UInt32(16 + body.count)) + Self.le(type) + Self.le(flags) + Self.le(sequence)
            + Self.le(UInt32(0)) + body
        while message.count % 4 != 0 { message.append(0) }
        bytes += message
    }

    mutating func link(
        _ type: Int32 = Int32(RTM_NEWLINK), family: UInt8 = 0, index: Int32, name: String,
        hardwareType: UInt16 = 1, flags: UInt32, mtu: UInt32 = 1500, operstate: UInt8 = 6, kind: String? = nil,
        sequence: UInt32 = 0, messageFlags: UInt16 = 0, attributes: [UInt8] = []
    ) {
        var body = [family, 0] + Self.le(hardwareType) + Self.le(index) + Self.le(flags) + Self.le(UInt32(0))
        body += Self.attribute(UInt16(IFLA_IFNAME), string: name)
        body += Self.attribute(UInt16(IFLA_MTU), uint32: mtu)
        body += Self.attribute(UInt16(IFLA_OPERSTATE), [operstate])
        body += Self.attribute(UInt16(IFLA_ADDRESS), [0x02, 0, 0, 0, 0, UInt8(truncatingIfNeeded: index)])
        if let kind {
            body += Self.attribute(UInt16(IFLA_LINKINFO), Self.attribute(UInt16(IFLA_INFO_KIND), string: kind))
        }
        body += attributes
        append(type: UInt16(type), flags: messageFlags, sequence: sequence, body: body)
    }

    mutating func address(
        _ type: Int32 = Int32(RTM_NEWADDR), family: Int32 = AF_INET, index: UInt32, address: [UInt8], prefix: UInt8,
        scope: UInt8 = 0, flags: UInt32 = 0x80, sequence: UInt32 = 0
    ) {
        var body = [UInt8(family), prefix, UInt8(truncatingIfNeeded: flags), scope] + Self.le(index)
        body += Self.attribute(UInt16(IFA_ADDRESS), address)
        if family == AF_INET { body += Self.attribute(UInt16(IFA_LOCAL), address) }
        body += Self.attribute(UInt16(IFA_FLAGS), uint32: flags)
        append(type: UInt16(type), sequence: sequence, body: body)
    }

    mutating func route(
        _ type: Int32 = Int32(RTM_NEWROUTE), family: Int32 = AF_INET, destinationLength: UInt8 = 0,
        destination: [UInt8]? = nil, gateway: [UInt8]?, outputIndex: UInt32?, metric: UInt32? = nil,
        routeType: UInt8 = 1,
        multipath: [(index: Int32, gateway: [UInt8]?, hops: UInt8)] = [], flags: UInt16 = 0
    ) {
        var body: [UInt8] = [UInt8(family), destinationLength, 0, 0, 254, 3, 0, routeType] + Self.le(UInt32(0))
        body += Self.attribute(UInt16(RTA_TABLE.rawValue), uint32: 254)
        if let destination { body += Self.attribute(UInt16(RTA_DST.rawValue), destination) }
        if let gateway { body += Self.attribute(UInt16(RTA_GATEWAY.rawValue), gateway) }
        if let outputIndex { body += Self.attribute(UInt16(RTA_OIF.rawValue), uint32: outputIndex) }
        if let metric { body += Self.attribute(UInt16(RTA_PRIORITY.rawValue), uint32: metric) }
        if !multipath.isEmpty {
            var hops: [UInt8] = []
            for hop in multipath {
                let attributes = hop.gateway.map { Self.attribute(UInt16(RTA_GATEWAY.rawValue), $0) } ?? []
                hops += Self.le(UInt16(8 + attributes.count)) + [0, hop.hops] + Self.le(hop.index) + attributes
            }
            body += Self.attribute(UInt16(RTA_MULTIPATH.rawValue), hops)
        }
        append(type: UInt16(type), flags: flags, body: body)
    }

    mutating func done(sequence: UInt32, flags: UInt16 = 2) {
        append(type: UInt16(NLMSG_DONE), flags: flags, sequence: sequence, body: Self.le(Int32(0)))
    }

    mutating func error(sequence: UInt32, errno: Int32) {
        append(type: UInt16(NLMSG_ERROR), sequence: sequence, body: Self.le(-errno) + [UInt8](repeating: 0, count: 16))
    }
}
