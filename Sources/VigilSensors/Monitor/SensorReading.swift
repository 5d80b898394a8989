/// The latest reading of a source that reads a device or file: a value, or why there is none.
///
/// Sources keep it in a `BehaviorSubject`: `pending` until the first read, then a `value`, or `unavailable` with a
/// reason a user can act on when the read failed (a malformed attribute, an unreadable raw value, a truncated scan, a
/// vanished device, a refused file); the source keeps running and publishes a value again once a read succeeds
/// (a buffered IIO monitor whose device node fails stops instead). The JSON form of a value is the value's own
/// fields; the other cases encode as `{"status": "pending"}` and `{"status": "unavailable", "reason": …}`.
public enum SensorReading<Value>: Sendable, Equatable, Encodable, CustomStringConvertible
where Value: Sendable & Equatable & Encodable & CustomStringConvertible {
    /// Nothing read yet.
    case pending
    /// The latest value.
    case value(Value)
    /// The latest read failed; `reason` says why.
    case unavailable(reason: String)

    /// The value, when there is one.
    public var value: Value? {
        if case .value(let value) = self { return value }
        return nil
    }

    public var description: String {
        switch self {
        case .pending: return "waiting for the first reading"
        case .value(let value): return value.description
        case .unavailable(let reason): return "unavailable: \(reason)"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case status, reason
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .value(let value):
            try value.encode(to: encoder)
        case .pending:
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode("pending", forKey: .status)
        case .unavailable(let reason):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode("unavailable", forKey: .status)
            try container.encode(reason, forKey: .reason)
        }
    }
}
