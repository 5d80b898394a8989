/// The latest reading of a source that reads a device or file: a value, or why there is none, and when.
///
/// Sources keep it in a `BehaviorSubject`: `pending` until the first read, then a `value`, or `unavailable` with a
/// reason a user can act on when the read failed (a malformed attribute, an unreadable raw value, a truncated scan, a
/// vanished device, a refused file); the source keeps running and publishes a value again once a read succeeds
/// (a buffered IIO monitor whose device node fails stops instead). Every reading carries the ``time`` it was taken.
///
/// Two readings are equal when both their ``status`` and their ``time`` are: a reading is a fact at a time. Sources
/// publish only changes of ``status``; a re-read that finds the same value publishes nothing.
///
/// The JSON form of a value is the value's own fields plus `"time"` (a value that is not an object, such as a number,
/// goes under `"value"`: `{"value": 5, "time": …}`); the other cases encode as
/// `{"status": "pending", "time": …}` and `{"status": "unavailable", "reason": …, "time": …}`. The description is the
/// status alone, without the time.
public struct SensorReading<Value>: Sendable, Equatable, Encodable, CustomStringConvertible
where Value: Sendable & Equatable & Encodable & CustomStringConvertible {
    /// What a reading says: a value, or why there is none.
    public enum Status: Sendable, Equatable {
        /// Nothing read yet.
        case pending
        /// The latest value.
        case value(Value)
        /// The latest read failed; `reason` says why.
        case unavailable(reason: String)
    }

    /// The value, or why there is none.
    public var status: Status
    /// When the reading was taken.
    public var time: ReadingTime

    /// A reading with the given status taken at `time`.
    ///
    /// - Parameters:
    ///   - status: The value, or why there is none.
    ///   - time: When the reading was taken.
    public init(_ status: Status, time: ReadingTime) {
        self.status = status
        self.time = time
    }

    /// Nothing read yet, stamped now.
    public static var pending: Self { Self(.pending, time: .now()) }

    /// A value read now.
    ///
    /// - Parameter value: The value read.
    /// - Returns: The reading, stamped ``ReadingTime/now()``.
    public static func value(_ value: Value) -> Self { Self(.value(value), time: .now()) }

    /// A read that failed now.
    ///
    /// - Parameter reason: Why the read failed, in words a user can act on.
    /// - Returns: The reading, stamped ``ReadingTime/now()``.
    public static func unavailable(reason: String) -> Self { Self(.unavailable(reason: reason), time: .now()) }

    /// The value, when there is one.
    public var value: Value? {
        if case .value(let value) = status { return value }
        return nil
    }

    public var description: String {
        switch status {
        case .pending: return "waiting for the first reading"
        case .value(let value): return value.description
        case .unavailable(let reason): return "unavailable: \(reason)"
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch status {
        case .value(let value): try ReadingEnvelope.encode(payload: value, to: encoder)
        case .pending: try ReadingEnvelope.encode(status: "pending", to: encoder)
        case .unavailable(let reason): try ReadingEnvelope.encode(status: "unavailable", reason: reason, to: encoder)
        }
        try ReadingEnvelope.encode(time: time, to: encoder)
    }
}
