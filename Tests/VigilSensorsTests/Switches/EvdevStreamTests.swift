import Testing
import VigilSensors
import VigilTestSupport

/// ``EvdevStream``: whole `struct input_event`s out of reads of any length, switch changes per frame, and
/// `SYN_DROPPED` handled as libevdev documents it.
@Suite(.timeLimit(.minutes(5))) struct EvdevStreamTests {
    static let lidClosing = Events.frame((.lid, true))

    @Test func anEventRoundTripsThroughItsKernelBytes() {
        let event = InputEvent(seconds: 12, microseconds: 345_678, type: 5, code: 1, value: -7)
        #expect(event.bytes.count == InputEvent.size)
        let decoded = event.bytes.withUnsafeBytes { InputEvent(decoding: $0) }
        #expect(decoded == event)
        #expect(event.timestamp == .seconds(12) + .microseconds(345_678))
    }

    @Test func aFrameAppliesAtItsReport() {
        var stream = EvdevStream()
        let bytes = Self.lidClosing.flatMap(\.bytes)
        #expect(stream.consume(bytes[..<InputEvent.size]).isEmpty)
        #expect(stream.consume(bytes[InputEvent.size...]) == [.changes([Events.change(.lid, true)])])
    }

    @Test(arguments: [1, 7, 23, 24, 25, 47]) func readsOfAnyLengthGiveTheSameFrames(chunk: Int) {
        var stream = EvdevStream()
        let frames = Self.lidClosing + Events.frame((.tabletMode, true), (.dock, false)) + Self.lidClosing
        let bytes = frames.flatMap(\.bytes)
        var actions: [EvdevStream.Action] = []
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            actions += stream.consume(bytes[start..<min(start + chunk, bytes.count)])
            #expect(stream.pendingByteCount < InputEvent.size)
        }
        #expect(
            actions == [
                .changes([Events.change(.lid, true)]),
                .changes([Events.change(.tabletMode, true), Events.change(.dock, false)]),
                .changes([Events.change(.lid, true)]),
            ])
        #expect(stream.pendingByteCount == 0)
    }

    @Test func synDroppedDiscardsUpToTheNextReportThenAsksForTheState() {
        var stream = EvdevStream()
        let events = [
            Events.change(.lid, true), Events.dropped, Events.change(.lid, false), Events.change(.dock, true),
            Events.report, Events.change(.tabletMode, true), Events.report,
        ]
        let actions = stream.consume(events.flatMap(\.bytes))
        #expect(actions == [.resynchronize, .changes([Events.change(.tabletMode, true)])])
        #expect(!stream.isDropping)
    }

    @Test func droppingLastsAcrossReadsUntilTheReport() {
        var stream = EvdevStream()
        #expect(stream.consume((Self.lidClosing.dropLast() + [Events.dropped]).flatMap(\.bytes)).isEmpty)
        #expect(stream.isDropping)
        #expect(stream.consume(Events.change(.lid, false).bytes).isEmpty)
        #expect(stream.consume(Events.report.bytes) == [.resynchronize])
    }

    @Test func otherEventsAndEmptyFramesGiveNothing() {
        var stream = EvdevStream()
        let key = InputEvent(type: 1, code: 116, value: 1)
        let misc = InputEvent(type: 4, code: 4, value: 0x70)
        let other = InputEvent(type: 0, code: 2, value: 0)
        #expect(stream.consume([key, misc, other, Events.report, Events.report].flatMap(\.bytes)).isEmpty)
    }

    /// The `evdev` fuzz target's seeds (64-bit `struct input_event`s), replayed as the target feeds them: in two reads
    /// split at the first byte's value.
    @Test(.enabled(if: InputEvent.size == 24, "the seeds hold 64-bit input_events"))
    func theFuzzSeedsDecodeAsRecorded() throws {
        #expect(FuzzCorpus.names("evdev") == ["bitmap", "dropped", "lid-close"])
        let expected: [String: [EvdevStream.Action]] = [
            "lid-close": [.changes([InputEvent(seconds: 12, microseconds: 500_000, type: 5, code: 0, value: 1)])],
            "dropped": [.resynchronize, .changes([InputEvent(seconds: 31, type: 5, code: 0, value: 0)])],
            "bitmap": [],
        ]
        for (name, actions) in expected {
            let bytes = try #require(FuzzCorpus.input("evdev", name))
            var stream = EvdevStream()
            let split = min(Int(bytes.first ?? 0), bytes.count)
            let decoded = stream.consume(bytes[..<split]) + stream.consume(bytes[split...])
            #expect(decoded == actions, "\(name)")
        }
        let bitmap = try #require(FuzzCorpus.input("evdev", "bitmap"))
        let parsed = try CapabilityBitmap(text: String(decoding: bitmap, as: UTF8.self), path: "/fuzz")
        #expect(parsed.bits == [64, 65, 68, 81, 84])
    }
}
