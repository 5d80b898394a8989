import Testing

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
