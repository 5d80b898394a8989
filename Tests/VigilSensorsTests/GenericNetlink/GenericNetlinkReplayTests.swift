import Testing
import Vigil
import VigilSensors
import VigilTestSupport

/// The generic netlink client against a scripted kernel: interrupted dumps, truncated datagrams, errors with their
/// extended acknowledgement, stale and foreign datagrams, and dumps longer than the bound.
@Suite(.timeLimit(.minutes(5)))
struct GenericNetlinkReplayTests {
    typealias Replay = ReplayGenericNetlinkTransport

    static func item(_ sequence: UInt32, _ value: UInt32, flags: UInt16 = 2) -> [UInt8] {
        var attributes = NetlinkAttributeWriter()
        attributes.append(1, uint32: value)
        return Replay.message(family: 0x20, command: 9, flags: flags, sequence: sequence, attributes: attributes.bytes)
    }

    static func values(_ messages: [GenericNetlinkMessage]) -> [UInt32] {
        messages.map { message in
            message.attributes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 4, as: UInt32.self) }
        }
    }

    /// The error a dump through `transport` throws; `nil` (and a recorded issue) when it throws none.
    static func dumpError(_ transport: Replay) -> SensorError? {
        #expect(throws: SensorError.self) {
            try GenericNetlinkClient(transport: transport).dump(family: 0x20, command: 8, version: 1)
        }
    }

    /// The error a request through `transport` throws; `nil` (and a recorded issue) when it throws none.
    static func requestError(_ transport: Replay) -> SensorError? {
        #expect(throws: SensorError.self) {
            try GenericNetlinkClient(transport: transport).request(family: 0x20, command: 2, version: 1)
        }
    }

    @Test func anInterruptedDumpIsRunAgain() throws {
        let runs = Counter()
        let transport = Replay { request in
            let run = runs.next()
            let sequence = request.header.sequence
            // The first run's tables change under it: its second part and its end carry NLM_F_DUMP_INTR.
            let flags: UInt16 = run == 1 ? 0x12 : 0x2
            return [
                .init(Self.item(sequence, 1) + Self.item(sequence, 2, flags: flags)),
                .init(Replay.done(sequence: sequence, flags: run == 1 ? 0x10 : 0)),
            ]
        }
        let client = GenericNetlinkClient(transport: transport)
        let messages = try client.dump(family: 0x20, command: 8, version: 1)
        #expect(Self.values(messages) == [1, 2])
        #expect(transport.requests.count == 2, "run again once")
        #expect(transport.requests.allSatisfy { $0.header.flags & 0x300 == 0x300 })
        #expect(Set(transport.requests.map(\.header.sequence)).count == 2, "each run has its own sequence number")
    }

    @Test func aDumpInterruptedEveryTimeGivesUp() throws {
        let transport = Replay { request in
            [.init(Self.item(request.header.sequence, 1, flags: 0x12) + Replay.done(sequence: request.header.sequence))]
        }
        let client = GenericNetlinkClient(transport: transport)
        #expect(throws: SensorError.self) { try client.dump(family: 0x20, command: 8, version: 1) }
        #expect(transport.requests.count == GenericNetlinkClient.maximumDumpAttempts)
    }

    @Test func aTruncatedDatagramIsAnErrorNotAPartialParse() throws {
        let transport = Replay { request in
            [.init(Self.item(request.header.sequence, 1), truncated: true), .init(Replay.done(sequence: 1))]
        }
        let error = Self.dumpError(transport)
        guard case .malformedMessage(_, let reason) = error else { return #expect(Bool(false), "\(error)") }
        #expect(reason.contains("MSG_TRUNC"))
    }

    @Test func aDatagramLargerThanTheBufferIsTruncated() throws {
        let transport = Replay { request in
            let big = (0..<9000).flatMap { _ in Self.item(request.header.sequence, 7) }
            return [.init(big), .init(Replay.done(sequence: request.header.sequence))]
        }
        #expect(throws: SensorError.self) {
            try GenericNetlinkClient(transport: transport).dump(family: 0x20, command: 8, version: 1)
        }
    }

    @Test func aDumpLongerThanTheBoundStops() throws {
        let transport = Replay { request in
            let part = (0..<100).flatMap { _ in Self.item(request.header.sequence, 1) }
            let parts = GenericNetlinkClient.maximumDumpMessages / 100 + 2
            return (0..<parts).map { _ in .init(part) }
        }
        let error = Self.dumpError(transport)
        guard case .limitReached = error else { return #expect(Bool(false), "\(error)") }
    }

    @Test func aPartThatCannotBeDecodedFailsTheDump() throws {
        let transport = Replay { request in
            // A message of the family too short for its generic header, between two good parts and the end.
            var short = Replay.done(sequence: request.header.sequence).prefix(16).map { $0 }
            short[0] = 16
            short[4] = 0x20
            return [
                .init(
                    Self.item(request.header.sequence, 1) + short + Self.item(request.header.sequence, 2)
                        + Replay.done(sequence: request.header.sequence))
            ]
        }
        let error = Self.dumpError(transport)
        guard case .malformedMessage = error else { return #expect(Bool(false), "\(error)") }
    }

    @Test func anErrorCarriesTheKernelsMessage() throws {
        let transport = Replay { request in
            [.init(Replay.error(sequence: request.header.sequence, code: -19, text: "no device matches name"))]
        }
        let error = Self.requestError(transport)
        guard case .systemCall(let name, _, let errno) = error else { return #expect(Bool(false), "\(error)") }
        #expect(errno == .noSuchDevice)
        #expect(name.contains("no device matches name"))
    }

    @Test func foreignSendersAndStaleAnswersAreSkipped() throws {
        let transport = Replay { request in
            let sequence = request.header.sequence
            return [
                // A process (port 4242) forging an answer, and a late answer to an earlier request.
                .init(
                    Self.item(sequence, 666) + Replay.error(sequence: sequence, code: 0),
                    sender: NetlinkSender(port: 4242)),
                .init(Self.item(sequence &- 1, 13) + Replay.error(sequence: sequence &- 1, code: 0)),
                .init(Self.item(sequence, 5, flags: 0) + Replay.error(sequence: sequence, code: 0)),
            ]
        }
        let messages = try GenericNetlinkClient(transport: transport).request(family: 0x20, command: 2, version: 1)
        #expect(Self.values(messages) == [5])
    }

    @Test func noAnswerTimesOut() throws {
        let transport = Replay { _ in [] }
        let error = Self.requestError(transport)
        guard case .unavailable = error else { return #expect(Bool(false), "\(error)") }
    }

    @Test func lengthsPastTheEndAreCountedNotRead() {
        var message = Self.item(1, 1)
        message[0] = 0xFF  // the header claims 255 bytes of 28
        let parsed = GenericNetlinkParser.parse(message)
        #expect(parsed.parts.isEmpty && parsed.malformed == 1)
        // A message too short for its generic header.
        let short = Replay.done(sequence: 1).prefix(16).map { $0 }
        var header = short
        header[4] = 0x20
        #expect(GenericNetlinkParser.parse(header).malformed == 1)
    }

    @Test func everyPrefixOfACaptureParsesWithoutCrashing() throws {
        for name in Fixtures.names("nl80211") where name.hasPrefix("msg-") {
            let bytes = try #require(Fixtures.bytes("nl80211/" + name))
            for cut in 0..<bytes.count {
                let parsed = GenericNetlinkParser.parse(Array(bytes[..<cut]))
                if cut > 0 { #expect(parsed.parts.isEmpty && parsed.malformed > 0, "\(name) cut at \(cut)") }
            }
            #expect(GenericNetlinkParser.parse(bytes).malformed == 0, "\(name)")
        }
    }
}

/// A counter the replay's responder can share across threads.
final class Counter: Sendable {
    private let value = FutexMutex(0)
    func next() -> Int {
        value.withLock { value in
            value += 1
            return value
        }
    }
}
