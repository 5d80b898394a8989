/// What an event source publishes: an event, a notice that events were lost, or why none can come for now; and when.
///
/// The event counterpart of ``SensorReading``, shared by the event sources (``DeviceEvent`` is a
/// `SensorEvent<Uevent>`, ``ClockChangeMonitor`` publishes `SensorEvent<ClockChange>`), so a consumer handles
/// lost events and an unreadable kernel the same way for each. An event is what happened (``kind``) and when it was
/// seen (``time``). Two events are equal when both their kind and their time are.
///
/// The JSON form of an event is the payload's own fields plus `"time"` (a payload that is not an object goes under
/// `"value"`); an overflow encodes as `{"event": "overflow", "time": …}`, and an unavailable event as
/// `{"status": "unavailable", "reason": …, "time": …}`, the shape of an unavailable ``SensorReading``, so one key
/// tells a consumer that a state or an event source cannot read.
public struct SensorEvent<Payload>: Sendable, Hashable, Encodable, CustomStringConvertible
where Payload: Sendable & Hashable & Encodable & CustomStringConvertible {
    /// What happened.
    public enum Kind: Sendable, Hashable {
        /// An event of the source.
        case event(Payload)
        /// The kernel dropped events (a full queue or socket buffer): the consumer should rescan what it cares about.
        case overflow
        /// The source cannot read the kernel's events for now, or has stopped reading them; `reason` says why and
        /// what the source does about it (each source documents whether it recovers by itself).
        case unavailable(reason: String)
    }

    /// What happened.
    public var kind: Kind
    /// When it was seen.
    public var time: ReadingTime

    /// An event of `kind` seen at `time`.
    ///
    /// - Parameters:
    ///   - kind: What happened.
    ///   - time: When it was seen.
    public init(_ kind: Kind, time: ReadingTime) {
        self.kind = kind
        self.time = time
    }

    /// An event seen now.
    ///
    /// - Parameter payload: What happened.
    /// - Returns: The event, stamped ``ReadingTime/now()``.
    public static func event(_ payload: Payload) -> Self { Self(.event(payload), time: .now()) }

    /// Events were lost, noticed now.
    public static var overflow: Self { Self(.overflow, time: .now()) }

    /// Events cannot be read, noticed now.
    ///
    /// - Parameter reason: Why, and what the source does about it.
    /// - Returns: The event, stamped ``ReadingTime/now()``.
    public static func unavailable(reason: String) -> Self { Self(.unavailable(reason: reason), time: .now()) }

    /// The payload, when the event is one.
    public var payload: Payload? {
        if case .event(let payload) = kind { return payload }
        return nil
    }

    public var description: String {
        switch kind {
        case .event(let payload): return payload.description
        case .overflow: return "overflow: events were lost, rescan"
        case .unavailable(let reason): return "unavailable: \(reason)"
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch kind {
        case .event(let payload): try ReadingEnvelope.encode(payload: payload, to: encoder)
        case .overflow: try ReadingEnvelope.encode(event: "overflow", to: encoder)
        case .unavailable(let reason): try ReadingEnvelope.encode(status: "unavailable", reason: reason, to: encoder)
        }
        try ReadingEnvelope.encode(time: time, to: encoder)
    }
}
