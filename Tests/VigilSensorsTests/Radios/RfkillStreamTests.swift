import Testing
import VigilTestSupport

@testable import VigilSensors

/// The `/dev/rfkill` event decoder and the drain counter, without a device.
@Suite(.timeLimit(.minutes(5))) struct RfkillStreamTests {
    @Test func eventsOfEverySizeFromEightOnAreDecoded() throws {
        let bytes: [UInt8] = [0x02, 0x01, 0, 0, 1, 2, 1, 0]
        let event = try #require(RfkillEvent(bytes: bytes))
        #expect(event.index == 0x0102 && event.typeName == "wlan" && event.operation == .change)
        #expect(event.softBlocked && !event.hardBlocked && event.hardBlockReasons == nil)
        let extended = try #require(RfkillEvent(bytes: bytes + [0x02]))
        #expect(extended.hardBlockReasons == .notOwner)
        let longer = try #require(RfkillEvent(bytes: bytes + [0x01, 0xFF, 0xFF, 0xFF]))
        #expect(longer.hardBlockReasons == .signal, "bytes after the known fields are ignored")
        #expect(RfkillEvent(bytes: bytes.prefix(7)) == nil)
        #expect(RfkillEvent(bytes: []) == nil)
    }

    @Test func unknownOperationsAndTypesAreKeptAsNumbers() throws {
        let event = try #require(RfkillEvent(bytes: [1, 0, 0, 0, 42, 17, 0, 1]))
        #expect(event.operation == .unknown(17) && event.typeName == nil && event.type == 42)
        #expect(RfkillEvent(bytes: event.bytes(size: 8)) == event)
    }

    @Test func aTruncatedReadAsksForAResync() {
        var stream = RfkillStream(eventSize: 9)
        guard case .resynchronize = stream.consume([1, 2, 3]) else {
            Issue.record("a 3-byte event was not refused")
            return
        }
        #expect(stream.drained() == .none)
    }

    @Test(arguments: [1, 999, 1000, 1001, 2500]) func aDrainAtTheKernelsLimitAsksForAResync(count: Int) {
        var stream = RfkillStream(eventSize: 8)
        let event = RfkillEvent(index: 0, type: 1, operation: .change, softBlocked: true, hardBlocked: false)
        for _ in 0..<count { #expect(stream.consume(event.bytes(size: 8)) == .apply(event)) }
        #expect(stream.eventsSinceEmpty == count)
        let action = stream.drained()
        #expect((action != .none) == (count >= RfkillStream.kernelQueueLimit))
        #expect(stream.eventsSinceEmpty == 0 && stream.drained() == .none)
    }
}

/// The `rfkill` fuzz corpus replayed as the fuzzer reads it (the first byte the read size, then the reads), each
/// input with what it must give; `Fuzz/run.sh rfkill` is where random bytes go.
@Suite(.timeLimit(.minutes(5))) struct RfkillFuzzCorpusTests {
    static func actions(_ name: String) throws -> [RfkillStream.Action] {
        let bytes = try #require(FuzzCorpus.input("rfkill", name))
        let size = Int(bytes[0])
        var stream = RfkillStream(eventSize: size)
        var actions: [RfkillStream.Action] = []
        var rest = bytes.dropFirst()
        while !rest.isEmpty {
            actions.append(stream.consume(rest.prefix(size)))
            rest = rest.dropFirst(size)
        }
        return actions
    }

    @Test func everyCorpusInputHasAnExpectation() {
        #expect(FuzzCorpus.names("rfkill") == ["add-delete-unknown", "change-8", "change-9-reasons", "truncated"])
    }

    @Test func eightByteChanges() throws {
        #expect(
            try Self.actions("change-8") == [
                .apply(RfkillEvent(index: 1, type: 1, operation: .change, softBlocked: false, hardBlocked: true)),
                .apply(RfkillEvent(index: 0, type: 2, operation: .change, softBlocked: true, hardBlocked: false)),
            ])
    }

    @Test func nineByteChangesWithReasons() throws {
        let events = try Self.actions("change-9-reasons")
        #expect(
            events.first
                == .apply(
                    RfkillEvent(
                        index: 1, type: 1, operation: .change, softBlocked: false, hardBlocked: true,
                        hardBlockReasons: [.signal, .notOwner])))
        #expect(events.count == 2)
    }

    @Test func anAddADeleteAndAnUnknownOperation() throws {
        let operations = try Self.actions("add-delete-unknown").compactMap { action -> RfkillEvent.Operation? in
            if case .apply(let event) = action { return event.operation }
            return nil
        }
        #expect(operations == [.add, .delete, .unknown(17)])
    }

    @Test func aTruncatedEvent() throws {
        guard case .resynchronize = try #require(try Self.actions("truncated").first) else {
            Issue.record("a 5-byte read was taken as an event")
            return
        }
    }
}
