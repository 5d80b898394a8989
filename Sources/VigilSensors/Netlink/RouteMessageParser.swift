import CLinuxSupport
import Glibc

/// Decodes rtnetlink datagrams into ``RouteEnvelope`` values, skipping what it cannot use.
///
/// The parser never traps: a truncated or malformed message is skipped and counted in ``Result/malformed``; a
/// well-formed message Vigil does not use (another message type, a route of the `local` table or of another type
/// than unicast, a bridge-port link message)
/// is counted in ``Result/ignored``. It is pure: bytes in, values out.
package enum RouteMessageParser {
    /// What one datagram held.
    package struct Result: Hashable, Sendable {
        /// The decoded messages, in order.
        package var envelopes: [RouteEnvelope] = []
        /// Messages skipped because they were truncated or malformed.
        package var malformed = 0
        /// Well-formed messages Vigil does not use.
        package var ignored = 0
        /// Datagrams dropped because the kernel did not send them.
        package var rejected = 0

        /// Creates an empty result.
        package init() {}
    }

    /// Decodes one datagram.
    ///
    /// - Parameter bytes: The bytes `recvmsg(2)` returned.
    /// - Returns: The messages it held, with counts of skipped ones.
    package static func parse(_ bytes: UnsafeRawBufferPointer) -> Result {
        let buffer = NetlinkBytes(bytes)
        let (messages, framingErrors) = NetlinkMessageHeader.split(buffer)
        var result = Result()
        result.malformed = framingErrors
        for (header, payload) in messages {
            switch decode(header, payload, in: buffer) {
            case .message(let message): result.envelopes.append(RouteEnvelope(header: header, message: message))
            case .ignored: result.ignored += 1
            case .malformed: result.malformed += 1
            }
        }
        return result
    }

    /// Decodes one datagram held in an array.
    package static func parse(_ bytes: [UInt8]) -> Result {
        bytes.withUnsafeBytes { parse($0) }
    }

    /// Decodes one datagram if the kernel sent it; anything from another sender is dropped unread and counted in
    /// ``Result/rejected``.
    package static func parse(_ bytes: UnsafeRawBufferPointer, from sender: NetlinkSender) -> Result {
        guard sender.isKernel else {
            var result = Result()
            result.rejected = 1
            return result
        }
        return parse(bytes)
    }

    /// Decodes one datagram held in an array if the kernel sent it.
    package static func parse(_ bytes: [UInt8], from sender: NetlinkSender) -> Result {
        bytes.withUnsafeBytes { parse($0, from: sender) }
    }

    private enum Outcome {
        case message(RouteMessage)
        case ignored
        case malformed
    }

    private static func decode(_ header: NetlinkMessageHeader, _ payload: Range<Int>, in bytes: NetlinkBytes)
        -> Outcome
    {
        switch Int32(header.type) {
        case NLMSG_DONE:
            return .message(.done)
        case NLMSG_ERROR:
            guard let code = bytes.load(Int32.self, at: payload.lowerBound), code <= 0, code > Int32.min else {
                return .malformed
            }
            return .message(.error(errno: -code))
        case Int32(RTM_NEWLINK), Int32(RTM_DELLINK):
            return decodeLink(header, payload, in: bytes)
        case Int32(RTM_NEWADDR), Int32(RTM_DELADDR):
            return decodeAddress(header, payload, in: bytes)
        case Int32(RTM_NEWROUTE), Int32(RTM_DELROUTE):
            return decodeRoute(header, payload, in: bytes)
        default:
            return .ignored
        }
    }

    // struct ifinfomsg: family u8, pad u8, type u16, index i32, flags u32, change u32.
    private static func decodeLink(_ header: NetlinkMessageHeader, _ payload: Range<Int>, in bytes: NetlinkBytes)
        -> Outcome
    {
        let fixed = 16
        guard payload.count >= fixed, let family = bytes.load(UInt8.self, at: payload.lowerBound),
            let type = bytes.load(UInt16.self, at: payload.lowerBound + 2),
            let index = bytes.load(Int32.self, at: payload.lowerBound + 4),
            let flags = bytes.load(UInt32.self, at: payload.lowerBound + 8),
            let attributes = RouteAttributes(bytes, range: payload.lowerBound + fixed..<payload.upperBound)
        else { return .malformed }
        // AF_BRIDGE messages describe bridge ports, not links; a DELLINK of that family does not delete the link.
        guard Int32(family) == AF_UNSPEC else { return .ignored }
        guard index > 0, let raw = attributes.raw(UInt16(IFLA_IFNAME)), raw.first != 0, !raw.isEmpty else {
            return .malformed
        }
        // The exact bytes up to the terminating NUL: a name need not be UTF-8.
        let name = BytePath(bytes: raw.prefix { $0 != 0 })
        var link = RouteMessage.Link(
            index: Int(index), name: name, hardwareType: type, flags: InterfaceFlags(rawValue: flags))
        link.operationalStatus = attributes.uint8(UInt16(IFLA_OPERSTATE)).flatMap(OperationalStatus.init) ?? .unknown
        link.mtu = attributes.uint32(UInt16(IFLA_MTU)).map(Int.init)
        link.hardwareAddress = attributes.raw(UInt16(IFLA_ADDRESS))
        // Counters a kernel cannot fill in (too short a struct) leave the link without counters, never malformed.
        link.traffic =
            attributes.raw(UInt16(IFLA_STATS64)).flatMap { InterfaceTraffic(linkStatistics: $0, fieldSize: 8) }
            ?? attributes.raw(UInt16(IFLA_STATS)).flatMap { InterfaceTraffic(linkStatistics: $0, fieldSize: 4) }
        if let info = attributes[UInt16(IFLA_LINKINFO)] {
            guard let nested = RouteAttributes(bytes, range: info) else { return .malformed }
            link.linkKind = nested.string(UInt16(IFLA_INFO_KIND))
        }
        return .message(header.type == UInt16(RTM_NEWLINK) ? .newLink(link) : .deleteLink(link))
    }

    // struct ifaddrmsg: family u8, prefixlen u8, flags u8, scope u8, index u32.
    private static func decodeAddress(_ header: NetlinkMessageHeader, _ payload: Range<Int>, in bytes: NetlinkBytes)
        -> Outcome
    {
        let fixed = 8
        guard payload.count >= fixed, let rawFamily = bytes.load(UInt8.self, at: payload.lowerBound),
            let prefix = bytes.load(UInt8.self, at: payload.lowerBound + 1),
            let smallFlags = bytes.load(UInt8.self, at: payload.lowerBound + 2),
            let scope = bytes.load(UInt8.self, at: payload.lowerBound + 3),
            let index = bytes.load(UInt32.self, at: payload.lowerBound + 4),
            let attributes = RouteAttributes(bytes, range: payload.lowerBound + fixed..<payload.upperBound)
        else { return .malformed }
        guard let family = IPAddress.Family(addressFamily: rawFamily) else { return .ignored }
        let raw = attributes.raw(UInt16(IFA_LOCAL)) ?? attributes.raw(UInt16(IFA_ADDRESS))
        guard let raw, let address = IPAddress(family: family, bytes: raw), index > 0, index <= UInt32(Int32.max),
            Int(prefix) <= family.byteCount * 8
        else { return .malformed }
        let flags = attributes.uint32(UInt16(IFA_FLAGS)) ?? UInt32(smallFlags)
        let record = InterfaceAddress(
            interfaceIndex: Int(index), address: address, prefixLength: Int(prefix),
            scope: AddressScope(rawValue: scope), flags: AddressFlags(rawValue: flags))
        return .message(header.type == UInt16(RTM_NEWADDR) ? .newAddress(record) : .deleteAddress(record))
    }

    // struct rtmsg: family, dst_len, src_len, tos, table, protocol, scope, type (u8 each), flags u32.
    private static func decodeRoute(_ header: NetlinkMessageHeader, _ payload: Range<Int>, in bytes: NetlinkBytes)
        -> Outcome
    {
        let fixed = 12
        guard payload.count >= fixed, let rawFamily = bytes.load(UInt8.self, at: payload.lowerBound),
            let destinationLength = bytes.load(UInt8.self, at: payload.lowerBound + 1),
            let typeOfService = bytes.load(UInt8.self, at: payload.lowerBound + 3),
            let smallTable = bytes.load(UInt8.self, at: payload.lowerBound + 4),
            let type = bytes.load(UInt8.self, at: payload.lowerBound + 7),
            let attributes = RouteAttributes(bytes, range: payload.lowerBound + fixed..<payload.upperBound)
        else { return .malformed }
        guard let family = IPAddress.Family(addressFamily: rawFamily) else { return .ignored }
        let table = attributes.uint32(UInt16(RTA_TABLE.rawValue)) ?? UInt32(smallTable)
        // The local table holds the machine's own and broadcast addresses, which the address messages already say.
        guard Int32(type) == Int32(RTN_UNICAST), table != UInt32(RT_TABLE_LOCAL.rawValue) else { return .ignored }
        guard Int(destinationLength) <= family.byteCount * 8 else { return .malformed }
        var destination: IPAddress?
        if let raw = attributes.raw(UInt16(RTA_DST.rawValue)) {
            guard let address = IPAddress(family: family, bytes: raw) else { return .malformed }
            destination = address
        }
        let gateway = attributes.raw(UInt16(RTA_GATEWAY.rawValue)).map { IPAddress(family: family, bytes: $0) }
        if case .some(.none) = gateway { return .malformed }
        let outputIndex = attributes.uint32(UInt16(RTA_OIF.rawValue)).map(Int.init)
        var hops: [Route.NextHop] = []
        if let multipath = attributes[UInt16(RTA_MULTIPATH.rawValue)] {
            guard let decoded = decodeNextHops(multipath, family: family, in: bytes) else { return .malformed }
            // Every path is dead (its link is down): the route carries nothing, and the kernel removes it soon.
            guard !decoded.isEmpty else { return .ignored }
            hops = decoded
        } else {
            hops = [Route.NextHop(gateway: gateway ?? nil, interfaceIndex: outputIndex)]
        }
        let metric = attributes.uint32(UInt16(RTA_PRIORITY.rawValue)).map(Int.init) ?? 0
        let route = Route(
            family: family, destination: destination, prefixLength: Int(destinationLength), table: Int(table),
            metric: metric,
            typeOfService: family == .ipv4 ? Int(typeOfService) : 0, nextHops: hops)
        let replace = header.flags & UInt16(NLM_F_REPLACE) != 0
        return .message(
            header.type == UInt16(RTM_NEWROUTE) ? .newRoute(route, replace: replace) : .deleteRoute(route))
    }

    // struct rtnexthop: len u16, flags u8, hops u8, ifindex i32, then attributes up to len. A path flagged
    // RTNH_F_DEAD (its link is down) is left out, as the mirror drops it when the link goes down; `nil` when the
    // list is malformed or empty, an empty array when every path is dead.
    private static func decodeNextHops(_ range: Range<Int>, family: IPAddress.Family, in bytes: NetlinkBytes)
        -> [Route.NextHop]?
    {
        var hops: [Route.NextHop] = []
        var count = 0
        var offset = range.lowerBound
        while range.upperBound - offset >= 8 {
            guard let length = bytes.load(UInt16.self, at: offset), let flags = bytes.load(UInt8.self, at: offset + 2),
                let weight = bytes.load(UInt8.self, at: offset + 3),
                let index = bytes.load(Int32.self, at: offset + 4), length >= 8,
                Int(length) <= range.upperBound - offset,
                let attributes = RouteAttributes(bytes, range: offset + 8..<offset + Int(length))
            else { return nil }
            var gateway: IPAddress?
            if let raw = attributes.raw(UInt16(RTA_GATEWAY.rawValue)) {
                guard let address = IPAddress(family: family, bytes: raw) else { return nil }
                gateway = address
            }
            count += 1
            if flags & UInt8(RTNH_F_DEAD) == 0 {
                hops.append(
                    Route.NextHop(
                        gateway: gateway, interfaceIndex: index > 0 ? Int(index) : nil, weight: Int(weight) + 1))
            }
            offset += NetlinkBytes.align(Int(length))
        }
        return count == 0 ? nil : hops
    }
}
