import VigilSensors

/// What the JSON envelope says about a reading before its fields: the status, the reason, the event, and which of the
/// reading's encoded fields it replaces.
struct EnvelopeHead {
    var time: ReadingTime
    var status = "ok"
    var reason: String?
    var event: String?
    /// What to encode for the reading's fields; nil when there are none (pending, unavailable).
    var body: (any Encodable)?
    /// Encoded fields the head already says (a file event's `kind` is its `event`).
    var omitted: Set<String> = []
    /// New names for fields that clash with the envelope's keys.
    var renamed: [String: String] = [:]
    /// Fields the head adds before the reading's own.
    var extra: [(key: String, value: JSONValue)] = []

    /// The head of `reading`: from its type's ``EnvelopeDescribed`` conformance, or "ok" with every field.
    static func of(_ reading: any CatalogReading) -> EnvelopeHead {
        if let described = reading as? any EnvelopeDescribed { return described.envelopeHead }
        return EnvelopeHead(time: .now(), body: reading)
    }
}

/// A reading type that says its own status and event in the envelope.
///
/// Conform a new reading type here (in the tool) when its fields hold a status or an event; the others encode as
/// `"status": "ok"` with all their fields.
protocol EnvelopeDescribed {
    var envelopeHead: EnvelopeHead { get }
}

extension SensorReading: EnvelopeDescribed {
    var envelopeHead: EnvelopeHead {
        switch status {
        case .pending: return EnvelopeHead(time: time, status: "pending")
        case .unavailable(let reason): return EnvelopeHead(time: time, status: "unavailable", reason: reason)
        case .value(let value as any EnvelopeDescribed): return value.envelopeHead
        case .value(let value): return EnvelopeHead(time: time, body: value)
        }
    }
}

extension NetworkPath: EnvelopeDescribed {
    var envelopeHead: EnvelopeHead {
        // The connectivity status becomes "network" (and its reason "networkReason"), beside the envelope's own.
        let extra: [(key: String, value: JSONValue)] =
            switch status {
            case .satisfied: [("network", .string("satisfied"))]
            case .unsatisfied(let reason):
                [("network", .string("unsatisfied")), ("networkReason", .string(reason.rawValue))]
            }
        return EnvelopeHead(time: time, body: self, omitted: ["status"], extra: extra)
    }
}

/// An event payload that names the envelope's event itself (a uevent by its action) and the fields that says.
protocol EnvelopeEventNamed {
    var envelopeEvent: String { get }
    var envelopeOmitted: Set<String> { get }
}

extension SensorEvent: EnvelopeDescribed {
    var envelopeHead: EnvelopeHead {
        switch kind {
        case .unavailable(let reason): return EnvelopeHead(time: time, status: "unavailable", reason: reason)
        case .overflow: return EnvelopeHead(time: time, event: "overflow")
        case .event(let payload):
            let named = payload as? any EnvelopeEventNamed
            return EnvelopeHead(
                time: time, event: named?.envelopeEvent ?? "event", body: payload, omitted: named?.envelopeOmitted ?? []
            )
        }
    }
}

extension Uevent: EnvelopeEventNamed {
    var envelopeEvent: String { "\(action)" }
    var envelopeOmitted: Set<String> { ["action"] }
}

extension FileSystemEvent: EnvelopeEventNamed {
    var envelopeEvent: String { kind.rawValue }
    var envelopeOmitted: Set<String> { ["kind"] }
}

extension ClockChange: EnvelopeEventNamed {
    var envelopeEvent: String {
        if case .set = cause { return "clockSet" }
        return "clockResumed"
    }
    var envelopeOmitted: Set<String> { [] }
}
