import Foundation
import Testing
import Vigil
import VigilSensors

/// One in-band error shape for every event source: each publishes a ``SensorEvent`` whose lost events and
/// unreadable kernel are the same two cases (devices, files and the clock used to differ).
@Suite(.timeLimit(.minutes(5))) struct SharedEventShapeTests {
    /// What a consumer of any event source does with the shared cases, written once.
    private static func notice<Payload>(_ event: SensorEvent<Payload>) -> String? {
        switch event.kind {
        case .event: nil
        case .overflow: "rescan"
        case .unavailable(let reason): "unavailable: \(reason)"
        }
    }

    /// The readings of a source, when its readings are events of the shared shape.
    private static func payloadType<S: Source, Payload>(_ source: S) -> Payload.Type
    where S.Reading == SensorEvent<Payload> { Payload.self }

    @Test func everyEventSourcePublishesTheSharedShape() {
        #expect(Self.payloadType(DeviceMonitor()) == Uevent.self)
        #expect(Self.payloadType(FileSystemMonitor(path: "/tmp")) == FileSystemEvent.self)
        #expect(Self.payloadType(ClockChangeMonitor()) == ClockChange.self)
    }

    @Test func theSharedCasesMeanTheSameAndEncodeTheSameForEverySource() throws {
        let time = ReadingTime(monotonic: .now, wall: .seconds(1))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let overflows = try [
            encoder.encode(SensorEvent<Uevent>(.overflow, time: time)),
            encoder.encode(SensorEvent<FileSystemEvent>(.overflow, time: time)),
            encoder.encode(SensorEvent<ClockChange>(.overflow, time: time)),
        ].map { String(decoding: $0, as: UTF8.self) }
        #expect(Set(overflows) == [#"{"event":"overflow","time":"1970-01-01T00:00:01.000000Z"}"#])
        let unavailable = SensorEvent<FileSystemEvent>(.unavailable(reason: "no watch"), time: time)
        #expect(
            String(decoding: try encoder.encode(unavailable), as: UTF8.self)
                == #"{"reason":"no watch","status":"unavailable","time":"1970-01-01T00:00:01.000000Z"}"#)
        #expect(Self.notice(SensorEvent<Uevent>(.overflow, time: time)) == "rescan")
        #expect(Self.notice(unavailable) == "unavailable: no watch")
    }
}
