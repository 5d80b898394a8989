import CLinuxSupport
import Synchronization

/// A generic netlink client (`NETLINK_GENERIC`): resolves families and their multicast groups by name through the
/// kernel's controller, and runs requests and dumps with sequence numbers, acknowledgements and errors.
///
/// Transactions are synchronous: the kernel answers generic netlink requests while it handles them, so a reply is
/// waited for only briefly, and never longer than ``timeout``. One transaction runs at a time; a second one started
/// while the first runs is refused. Only datagrams the kernel sent (port 0) that answer the current request (its
/// sequence number) are taken; others (a late answer to a request that timed out) are skipped. A dump the kernel
/// marks as interrupted (`NLM_F_DUMP_INTR`: its tables changed meanwhile) is run again, up to
/// ``maximumDumpAttempts`` times. A datagram larger than the receive buffer (`MSG_TRUNC`) is an error, never a partial
/// parse, and a dump is bounded in messages and bytes, so a kernel (or replay) that never ends one cannot grow memory
/// without bound.
package final class GenericNetlinkClient: Sendable {
    /// The transport's largest datagram; the kernel's dump parts are at most 32 KiB.
    package static let bufferSize = 1 << 16
    /// How many times an interrupted dump is run before the client gives up.
    package static let maximumDumpAttempts = 4
    /// The most messages one dump may return.
    package static let maximumDumpMessages = 1 << 14
    /// The most bytes one dump may return.
    package static let maximumDumpBytes = 16 << 20

    /// The transport requests go through.
    package let transport: any GenericNetlinkTransport
    /// How long a transaction may wait for the kernel's next datagram.
    package let timeout: Duration
    private let sequence = Atomic<UInt32>(1)
    private let busy = Atomic<Bool>(false)

    /// Creates a client on `transport`.
    package init(transport: any GenericNetlinkTransport, timeout: Duration = .seconds(2)) {
        self.transport = transport
        self.timeout = timeout
    }

    /// Opens a `NETLINK_GENERIC` socket that joins no group, for requests, and a client on it.
    ///
    /// - Parameter namespace: A network namespace path, or `nil` for the caller's own.
    /// - Throws: ``SensorError`` when the socket cannot be opened.
    package static func open(namespace: String? = nil) throws(SensorError) -> GenericNetlinkClient {
        let socket = try NetlinkSocket(
            netlinkProtocol: NETLINK_GENERIC, groups: 0, namespace: namespace, receiveBufferSize: 1 << 20,
            passCredentials: false)
        socket.requestExtendedAcknowledgements()
        return GenericNetlinkClient(transport: socket)
    }

    /// Looks up a family by name (`CTRL_CMD_GETFAMILY`).
    ///
    /// - Returns: The family, or `nil` when the kernel has none of that name (its module is not loaded).
    /// - Throws: ``SensorError`` when the controller cannot be asked or answers nonsense.
    package func family(named name: String) throws(SensorError) -> GenericNetlinkFamily? {
        var attributes = NetlinkAttributeWriter()
        attributes.append(GenericNetlinkFamily.familyNameAttribute, string: name)
        let replies: [GenericNetlinkMessage]
        do {
            replies = try request(
                family: GenericNetlinkFamily.controllerID, command: GenericNetlinkFamily.getFamilyCommand, version: 1,
                attributes: attributes.bytes)
        } catch .systemCall(_, _, let errno) where errno == .noSuchFileOrDirectory {
            return nil
        }
        guard let family = replies.lazy.compactMap(GenericNetlinkFamily.init).first, family.name == name else {
            throw .malformedMessage(source: "nlctrl", reason: "no family record in the answer for \(name)")
        }
        return family
    }

    /// Every family the kernel has (a `CTRL_CMD_GETFAMILY` dump); a record that cannot be decoded is left out.
    package func families() throws(SensorError) -> [GenericNetlinkFamily] {
        try dump(family: GenericNetlinkFamily.controllerID, command: GenericNetlinkFamily.getFamilyCommand, version: 1)
            .compactMap(GenericNetlinkFamily.init)
    }

    /// Sends a request for one object and returns the kernel's replies, once it has acknowledged the request.
    ///
    /// - Throws: ``SensorError/systemCall(name:target:errno:)`` with the kernel's error (and its extended
    ///   acknowledgement message in the name) when it refuses; other ``SensorError``s for the transport, a timeout or
    ///   a truncated datagram.
    package func request(family: UInt16, command: UInt8, version: UInt8, attributes: [UInt8] = [])
        throws(SensorError) -> [GenericNetlinkMessage]
    {
        try transaction(
            family: family, command: command, version: version, flags: GenericNetlinkMessage.acknowledgeFlag,
            attributes: attributes
        ).messages
    }

    /// Dumps every object of a command, run again while the kernel marks it interrupted (`NLM_F_DUMP_INTR`).
    ///
    /// - Throws: As ``request(family:command:version:attributes:)``; ``SensorError/limitReached(name:value:target:)``
    ///   when the dump is still interrupted after ``maximumDumpAttempts`` runs, or exceeds the message or byte bound.
    package func dump(family: UInt16, command: UInt8, version: UInt8, attributes: [UInt8] = [])
        throws(SensorError) -> [GenericNetlinkMessage]
    {
        for _ in 0..<Self.maximumDumpAttempts {
            let result = try transaction(
                family: family, command: command, version: version, flags: GenericNetlinkMessage.dumpFlag,
                attributes: attributes)
            if !result.interrupted { return result.messages }
        }
        throw .limitReached(
            name: "interrupted dumps in a row (NLM_F_DUMP_INTR)", value: Self.maximumDumpAttempts,
            target: describe(family: family, command: command))
    }

    /// Runs one request to its end: `NLMSG_DONE` for a dump, the acknowledgement for a request.
    private func transaction(
        family: UInt16, command: UInt8, version: UInt8, flags: UInt16, attributes: [UInt8]
    ) throws(SensorError) -> (messages: [GenericNetlinkMessage], interrupted: Bool) {
        guard busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            throw .invalidArgument(
                name: "transaction", value: describe(family: family, command: command),
                reason: "another transaction is running on this generic netlink client")
        }
        defer { busy.store(false, ordering: .releasing) }
        let number = sequence.wrappingAdd(1, ordering: .relaxed).oldValue
        try transport.send(
            GenericNetlinkMessage.request(
                family: family, command: command, version: version, flags: flags, sequence: number,
                attributes: attributes))
        var collector = Collector(sequence: number, isDump: flags & GenericNetlinkMessage.dumpFlag != 0)
        var buffer = [UInt8](repeating: 0, count: Self.bufferSize)
        let what = describe(family: family, command: command)
        while !collector.isFinished {
            let received = buffer.withUnsafeMutableBytes { bytes in
                Result { () throws(SensorError) in try transport.receive(into: bytes) }
            }
            switch try received.get() {
            case .wouldBlock:
                guard try transport.waitForInput(timeout: timeout) else {
                    throw .unavailable(source: what, reason: "the kernel did not answer within \(timeout)")
                }
            case .overflow:
                // The kernel dropped part of the answer: the request socket joins no group, so it was ours.
                throw .systemCall(name: what, target: transport.target, errno: .noBufferSpace)
            case .datagram(let count, let sender, let truncated):
                guard sender.isKernel else { continue }
                guard !truncated else {
                    throw .malformedMessage(
                        source: what,
                        reason: "a datagram longer than the \(Self.bufferSize)-byte buffer was truncated (MSG_TRUNC)")
                }
                let parsed = buffer.withUnsafeBytes {
                    GenericNetlinkParser.parse(UnsafeRawBufferPointer(rebasing: $0[..<count]))
                }
                try collector.take(parsed, what: what, target: transport.target)
            }
        }
        return (collector.messages, collector.interrupted)
    }

    private func describe(family: UInt16, command: UInt8) -> String {
        "generic netlink family \(family) command \(command)"
    }

    /// The answer to one request as its datagrams arrive.
    private struct Collector {
        let sequence: UInt32
        let isDump: Bool
        var messages: [GenericNetlinkMessage] = []
        var bytes = 0
        var interrupted = false
        var isFinished = false

        mutating func take(
            _ parsed: (parts: [GenericNetlinkParser.Part], malformed: Int), what: String, target: String
        ) throws(SensorError) {
            for part in parsed.parts {
                switch part {
                case .message(let message):
                    guard message.header.sequence == sequence else { continue }
                    interrupted = interrupted || message.header.isDumpInterrupted
                    messages.append(message)
                    bytes += message.attributes.count
                    guard messages.count <= GenericNetlinkClient.maximumDumpMessages,
                        bytes <= GenericNetlinkClient.maximumDumpBytes
                    else {
                        throw .limitReached(
                            name: "messages in one answer", value: GenericNetlinkClient.maximumDumpMessages,
                            target: what)
                    }
                case .done(let header):
                    guard header.sequence == sequence else { continue }
                    interrupted = interrupted || header.isDumpInterrupted
                    isFinished = true
                case .error(let header, let code, let text):
                    guard header.sequence == sequence else { continue }
                    guard code == 0 else {
                        let name = text.map { "\(what): \($0)" } ?? what
                        throw .systemCall(name: name, target: target, errno: Errno(rawValue: -code))
                    }
                    // An acknowledgement ends a request; a dump ends with NLMSG_DONE.
                    if !isDump { isFinished = true }
                }
            }
            // The request socket joins no group: every kernel datagram answers a request, so a part that cannot be
            // framed makes the answer incomplete.
            if parsed.malformed > 0 {
                throw .malformedMessage(source: what, reason: "the kernel's answer could not be framed")
            }
        }
    }
}
