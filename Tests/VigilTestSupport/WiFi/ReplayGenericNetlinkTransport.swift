import Vigil
import VigilSensors

/// A scripted kernel for a ``GenericNetlinkClient``: each request sent is answered by `responder` with the datagrams
/// it returns, handed out one per receive; nothing pending means the kernel has nothing to say (a wait returns at once).
package final class ReplayGenericNetlinkTransport: GenericNetlinkTransport, Sendable {
    /// One datagram the replay hands out.
    package struct Datagram: Sendable {
        package var bytes: [UInt8]
        package var sender: NetlinkSender
        /// Whether to report it as truncated even when it fits the buffer.
        package var truncated: Bool

        package init(_ bytes: [UInt8], sender: NetlinkSender = NetlinkSender(port: 0), truncated: Bool = false) {
            self.bytes = bytes
            self.sender = sender
            self.truncated = truncated
        }
    }

    /// Answers one request (its sequence number is in its header) with datagrams.
    package typealias Responder = @Sendable (GenericNetlinkMessage) -> [Datagram]

    private struct State {
        var pending: [Datagram] = []
        var requests: [GenericNetlinkMessage] = []
    }

    package let target = "a replayed NETLINK_GENERIC"
    private let responder: Responder
    private let state = FutexMutex(State())

    package init(_ responder: @escaping Responder) { self.responder = responder }

    /// The requests sent so far.
    package var requests: [GenericNetlinkMessage] { state.withLock { $0.requests } }

    package func send(_ bytes: [UInt8]) throws(SensorError) {
        for case .message(let request) in GenericNetlinkParser.parse(bytes).parts {
            let answer = responder(request)
            state.withLock { state in
                state.requests.append(request)
                state.pending += answer
            }
        }
    }

    package func receive(into buffer: UnsafeMutableRawBufferPointer) throws(SensorError) -> NetlinkReceived {
        guard let datagram = state.withLock({ $0.pending.isEmpty ? nil : $0.pending.removeFirst() }) else {
            return .wouldBlock
        }
        let count = min(buffer.count, datagram.bytes.count)
        buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: datagram.bytes.withUnsafeBytes { $0 }[..<count]))
        return .datagram(
            count: count, sender: datagram.sender, truncated: datagram.truncated || datagram.bytes.count > buffer.count)
    }

    package func waitForInput(timeout: Duration) throws(SensorError) -> Bool {
        state.withLock { !$0.pending.isEmpty }
    }

    // MARK: what a kernel sends

    /// A family message as the kernel sends it, answering `sequence`.
    package static func message(
        family: UInt16, command: UInt8, version: UInt8 = 1, flags: UInt16 = 0, sequence: UInt32,
        attributes: [UInt8]
    ) -> [UInt8] {
        header(length: 20 + attributes.count, type: family, flags: flags, sequence: sequence) + [
            command, version, 0, 0,
        ]
            + attributes
    }

    /// `NLMSG_DONE` ending a dump.
    package static func done(sequence: UInt32, flags: UInt16 = 0) -> [UInt8] {
        header(length: 20, type: 3, flags: flags | 0x2, sequence: sequence) + [0, 0, 0, 0]
    }

    /// `NLMSG_ERROR` with `code` (0 acknowledges), the request's header echoed (capped), and the extended
    /// acknowledgement's message when `text` is given.
    package static func error(sequence: UInt32, code: Int32, text: String? = nil) -> [UInt8] {
        var tail: [UInt8] = []
        var flags: UInt16 = 0x100  // NLM_F_CAPPED
        if let text {
            var attributes = NetlinkAttributeWriter()
            attributes.append(1, string: text)
            tail = attributes.bytes
            flags |= 0x200  // NLM_F_ACK_TLVS
        }
        var body: [UInt8] = []
        withUnsafeBytes(of: code.littleEndian) { body += $0 }
        body += header(length: 16, type: 0, flags: 0, sequence: sequence)
        return header(length: 16 + body.count + tail.count, type: 2, flags: flags, sequence: sequence) + body + tail
    }

    /// `bytes` (a whole captured message) with its sequence number replaced, as if it answered `sequence`.
    package static func resequenced(_ bytes: [UInt8], _ sequence: UInt32, flags: UInt16? = nil) -> [UInt8] {
        var copy = bytes
        withUnsafeBytes(of: sequence.littleEndian) { copy.replaceSubrange(8..<12, with: $0) }
        if let flags { withUnsafeBytes(of: flags.littleEndian) { copy.replaceSubrange(6..<8, with: $0) } }
        return copy
    }

    private static func header(length: Int, type: UInt16, flags: UInt16, sequence: UInt32) -> [UInt8] {
        var bytes: [UInt8] = []
        withUnsafeBytes(of: UInt32(length).littleEndian) { bytes += $0 }
        withUnsafeBytes(of: type.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: flags.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: sequence.littleEndian) { bytes += $0 }
        bytes += [0, 0, 0, 0]
        return bytes
    }
}
