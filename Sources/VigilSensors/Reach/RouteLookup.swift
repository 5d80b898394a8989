import CLinuxSupport
import Glibc

/// The kernel's answer to one route lookup (`RTM_GETROUTE` for an address, as `ip route get ADDR` asks it): the route
/// it would send a packet by, or the error it answers instead.
package enum RouteLookup: Hashable, Sendable {
    /// The route the kernel chose.
    package struct Answer: Hashable, Sendable {
        /// The route's type (`rtm_type`): unicast, local, broadcast, unreachable, …
        package var type: RouteType
        /// The table the route came from (`RTA_TABLE`, else `rtm_table`).
        package var table: Int
        /// The output interface (`RTA_OIF`).
        package var interfaceIndex: Int?
        /// The gateway (`RTA_GATEWAY`, or `RTA_VIA` for a gateway of the other family).
        package var gateway: IPAddress?
        /// The source address the kernel would use (`RTA_PREFSRC`).
        package var sourceAddress: IPAddress?

        /// Creates an answer.
        package init(
            type: RouteType, table: Int = 254, interfaceIndex: Int? = nil, gateway: IPAddress? = nil,
            sourceAddress: IPAddress? = nil
        ) {
            self.type = type
            self.table = table
            self.interfaceIndex = interfaceIndex
            self.gateway = gateway
            self.sourceAddress = sourceAddress
        }
    }

    /// The kernel found a route.
    case route(Answer)
    /// The kernel answered with an error (`ENETUNREACH`, `EHOSTUNREACH`, `EACCES`, `EINVAL`, …).
    case error(Errno)

    /// The bytes of a lookup request for `address`, as iproute2's `ip route get ADDR [mark M]` sends it: `rtmsg` of
    /// the address's family with a full-length destination and `RTM_F_LOOKUP_TABLE`, then `RTA_DST` and, when
    /// given, `RTA_MARK`.
    package static func requestBytes(for address: IPAddress, mark: UInt32?, sequence: UInt32) -> [UInt8] {
        var attributes: [UInt8] = []
        appendAttribute(UInt16(RTA_DST.rawValue), address.bytes, to: &attributes)
        if let mark {
            appendAttribute(UInt16(RTA_MARK.rawValue), withUnsafeBytes(of: mark) { Array($0) }, to: &attributes)
        }
        let length = UInt32(NetlinkMessageHeader.size + 12 + attributes.count)
        var bytes: [UInt8] = []
        withUnsafeBytes(of: length) { bytes += $0 }
        withUnsafeBytes(of: UInt16(RTM_GETROUTE)) { bytes += $0 }
        withUnsafeBytes(of: UInt16(NLM_F_REQUEST)) { bytes += $0 }
        withUnsafeBytes(of: sequence) { bytes += $0 }
        withUnsafeBytes(of: UInt32(0)) { bytes += $0 }
        // struct rtmsg: family, dst_len, src_len, tos, table, protocol, scope, type, flags.
        let family = UInt8(address.family == .ipv4 ? AF_INET : AF_INET6)
        bytes += [family, UInt8(address.family.byteCount * 8), 0, 0, 0, 0, 0, 0]
        withUnsafeBytes(of: UInt32(RTM_F_LOOKUP_TABLE)) { bytes += $0 }
        return bytes + attributes
    }

    private static func appendAttribute(_ type: UInt16, _ payload: [UInt8], to bytes: inout [UInt8]) {
        withUnsafeBytes(of: UInt16(4 + payload.count)) { bytes += $0 }
        withUnsafeBytes(of: type) { bytes += $0 }
        bytes += payload
        bytes += [UInt8](repeating: 0, count: NetlinkBytes.align(payload.count) - payload.count)
    }

    /// One reply found in a datagram: the sequence number of the request it answers, and the answer.
    package struct Reply: Hashable, Sendable {
        /// The request's sequence number.
        package var sequence: UInt32
        /// The kernel's answer.
        package var lookup: RouteLookup
    }

    /// What one datagram on the lookup socket held.
    package struct Parsed: Hashable, Sendable {
        /// Answers to requests sent on the socket (from `port`).
        package var replies: [Reply] = []
        /// Whether it held a notification (a link, address, route or rule changed).
        package var notified = false
        /// Messages that could not be decoded (truncated, impossible lengths, wrong family).
        package var malformed = 0
    }

    /// Decodes one datagram of the lookup socket: replies to its requests (by `port`, with a sequence number) and
    /// whether anything else the kernel announced changed. Never traps on any input.
    ///
    /// - Parameters:
    ///   - bytes: The bytes `recvmsg(2)` returned.
    ///   - port: The socket's own port, which its replies carry.
    package static func parse(_ bytes: UnsafeRawBufferPointer, port: UInt32) -> Parsed {
        let buffer = NetlinkBytes(bytes)
        let (messages, framingErrors) = NetlinkMessageHeader.split(buffer)
        var parsed = Parsed()
        parsed.malformed = framingErrors
        for (header, payload) in messages {
            guard header.port == port, header.sequence != 0 else {
                parsed.notified = true
                continue
            }
            switch Int32(header.type) {
            case NLMSG_ERROR:
                guard let code = buffer.load(Int32.self, at: payload.lowerBound), code < 0, code > Int32.min else {
                    // An acknowledgement (0) or nonsense: no answer to a lookup.
                    parsed.malformed += 1
                    continue
                }
                parsed.replies.append(Reply(sequence: header.sequence, lookup: .error(Errno(rawValue: -code))))
            case Int32(RTM_NEWROUTE):
                guard let answer = decodeRoute(payload, in: buffer) else {
                    parsed.malformed += 1
                    continue
                }
                parsed.replies.append(Reply(sequence: header.sequence, lookup: .route(answer)))
            default:
                parsed.notified = true
            }
        }
        return parsed
    }

    /// Decodes one datagram held in an array.
    package static func parse(_ bytes: [UInt8], port: UInt32) -> Parsed {
        bytes.withUnsafeBytes { parse($0, port: port) }
    }

    // struct rtmsg: family, dst_len, src_len, tos, table, protocol, scope, type (u8 each), flags u32.
    private static func decodeRoute(_ payload: Range<Int>, in bytes: NetlinkBytes) -> Answer? {
        let fixed = 12
        guard payload.count >= fixed, let rawFamily = bytes.load(UInt8.self, at: payload.lowerBound),
            let smallTable = bytes.load(UInt8.self, at: payload.lowerBound + 4),
            let type = bytes.load(UInt8.self, at: payload.lowerBound + 7),
            let attributes = RouteAttributes(bytes, range: payload.lowerBound + fixed..<payload.upperBound),
            let family = IPAddress.Family(addressFamily: rawFamily)
        else { return nil }
        var answer = Answer(type: RouteType(rawValue: type))
        answer.table = Int(attributes.uint32(UInt16(RTA_TABLE.rawValue)) ?? UInt32(smallTable))
        if let index = attributes.uint32(UInt16(RTA_OIF.rawValue)) {
            guard index > 0, index <= UInt32(Int32.max) else { return nil }
            answer.interfaceIndex = Int(index)
        }
        if let raw = attributes.raw(UInt16(RTA_GATEWAY.rawValue)) {
            guard let gateway = IPAddress(family: family, bytes: raw) else { return nil }
            answer.gateway = gateway
        } else if let raw = attributes.raw(UInt16(RTA_VIA.rawValue)) {
            // struct rtvia: family u16, then the address.
            guard raw.count >= 2,
                let rawViaFamily = UInt8(exactly: raw.withUnsafeBytes { $0.loadUnaligned(as: UInt16.self) }),
                let viaFamily = IPAddress.Family(addressFamily: rawViaFamily),
                let gateway = IPAddress(family: viaFamily, bytes: Array(raw.dropFirst(2)))
            else { return nil }
            answer.gateway = gateway
        }
        if let raw = attributes.raw(UInt16(RTA_PREFSRC.rawValue)) {
            guard let source = IPAddress(family: family, bytes: raw) else { return nil }
            answer.sourceAddress = source
        }
        return answer
    }
}
