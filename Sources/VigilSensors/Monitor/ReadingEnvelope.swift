/// The JSON envelope ``SensorReading`` and ``SensorEvent`` share: the payload's own fields (or `"value"` for a payload
/// that is not an object), a `"status"` with its `"reason"` for what is not a payload, and the `"time"`.
enum ReadingEnvelope {
    private enum Key: String, CodingKey {
        case event, status, reason, value, time
    }

    /// Encodes `payload` into the envelope: its own fields when it encodes as an object, else under `"value"`.
    static func encode(payload: some Encodable, to encoder: any Encoder) throws {
        if EncodingShape.of(payload) == .keyed {
            try payload.encode(to: encoder)
        } else {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(payload, forKey: .value)
        }
    }

    /// Encodes `"status": status`, and `"reason"` when given.
    static func encode(status: String, reason: String? = nil, to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(status, forKey: .status)
        if let reason { try container.encode(reason, forKey: .reason) }
    }

    /// Encodes `"event": event`, for what an event source reports that is not a payload (`overflow`).
    static func encode(event: String, to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(event, forKey: .event)
    }

    /// Encodes `"time"`, last, beside whatever the envelope holds.
    static func encode(time: ReadingTime, to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(time, forKey: .time)
    }
}
