import CLinuxSupport

/// Splits a datagram from a generic netlink socket into its parts: family messages, the end of a dump, errors and
/// acknowledgements.
///
/// Every length is checked against the datagram, so random or truncated bytes give `malformed` counts, never a
/// crash or a read past the end.
package enum GenericNetlinkParser {
    /// One part of a datagram.
    package enum Part: Hashable, Sendable {
        /// A message of a family (its type is the family's id).
        case message(GenericNetlinkMessage)
        /// `NLMSG_DONE`: the end of a dump.
        case done(NetlinkMessageHeader)
        /// `NLMSG_ERROR`: `code` is 0 for an acknowledgement, else a negative errno; `text` is the kernel's extended
        /// acknowledgement message (`NLMSGERR_ATTR_MSG`), when it sent one.
        case error(NetlinkMessageHeader, code: Int32, text: String?)
    }

    /// The parts of `bytes`, and how many messages could not be decoded.
    ///
    /// A message too short for its headers is counted as malformed and skipped; a length field that lies ends the
    /// walk (the rest cannot be framed) and counts as one more.
    package static func parse(_ bytes: UnsafeRawBufferPointer) -> (parts: [Part], malformed: Int) {
        let raw = NetlinkBytes(bytes)
        let (messages, framingErrors) = NetlinkMessageHeader.split(raw)
        var parts: [Part] = []
        var malformed = framingErrors
        for (header, payload) in messages {
            switch Int32(header.type) {
            case NLMSG_NOOP, NLMSG_OVERRUN:
                continue
            case NLMSG_DONE:
                parts.append(.done(header))
            case NLMSG_ERROR:
                guard let part = decodeError(header, payload, in: raw) else {
                    malformed += 1
                    continue
                }
                parts.append(part)
            default:
                guard payload.count >= GenericNetlinkMessage.genericHeaderSize,
                    let command = raw.load(UInt8.self, at: payload.lowerBound),
                    let version = raw.load(UInt8.self, at: payload.lowerBound + 1),
                    let attributes = raw.bytes(
                        payload.lowerBound + GenericNetlinkMessage.genericHeaderSize..<payload.upperBound)
                else {
                    malformed += 1
                    continue
                }
                parts.append(
                    .message(
                        GenericNetlinkMessage(
                            header: header, command: command, version: version, attributes: attributes))
                )
            }
        }
        return (parts, malformed)
    }

    /// Parses a datagram held in an array.
    package static func parse(_ bytes: [UInt8]) -> (parts: [Part], malformed: Int) {
        bytes.withUnsafeBytes { parse($0) }
    }

    /// `struct nlmsgerr`: the error, the request's header (and its payload unless `NLM_F_CAPPED`), then with
    /// `NLM_F_ACK_TLVS` the extended acknowledgement's attributes.
    private static func decodeError(_ header: NetlinkMessageHeader, _ payload: Range<Int>, in bytes: NetlinkBytes)
        -> Part?
    {
        guard let code = bytes.load(Int32.self, at: payload.lowerBound), code <= 0, code > -4096 else { return nil }
        var text: String?
        if header.flags & UInt16(NLM_F_ACK_TLVS) != 0,
            let requestLength = bytes.load(UInt32.self, at: payload.lowerBound + 4)
        {
            let echoed = header.flags & UInt16(NLM_F_CAPPED) != 0 ? NetlinkMessageHeader.size : Int(requestLength)
            let start = payload.lowerBound + 4 + NetlinkBytes.align(echoed)
            // Extended attributes that do not fit are left out; the error itself stands.
            if start <= payload.upperBound, let attributes = RouteAttributes(bytes, range: start..<payload.upperBound) {
                text = attributes.string(UInt16(NLMSGERR_ATTR_MSG.rawValue))
            }
        }
        return .error(header, code: code, text: text)
    }
}
