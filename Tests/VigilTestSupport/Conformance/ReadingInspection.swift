import Foundation
import Vigil
import VigilSensors

/// What the conformance checker reads from any reading, whatever its type: its time, whether it says `pending` or
/// `unavailable`, and a form to compare two readings by.
///
/// Read by reflection rather than through a list of reading types, so a new source's readings are checked from its
/// first commit: a reading keeps its ``ReadingTime`` in a stored property, and says `pending` or `unavailable(reason:)`
/// in an enum it stores (``SensorReading/Status``, ``NetworkPath/Phase``, ``DeviceEvent/Kind``).
package enum ReadingInspection {
    /// What a reading says about the source's state.
    package enum Status: Equatable, Sendable {
        case pending
        case unavailable(reason: String)
        /// A value or an event.
        case other
    }

    /// The reading's time: the first stored property of type ``ReadingTime``.
    package static func time(of reading: Any) -> ReadingTime? {
        for child in Mirror(reflecting: reading).children {
            if let time = child.value as? ReadingTime { return time }
        }
        return nil
    }

    /// Whether the reading is `pending`, `unavailable` with its reason, or anything else.
    package static func status(of reading: Any) -> Status {
        for child in Mirror(reflecting: reading).children {
            let mirror = Mirror(reflecting: child.value)
            guard mirror.displayStyle == .enum else { continue }
            if let payload = mirror.children.first {
                if payload.label == "unavailable" { return .unavailable(reason: reason(in: payload.value)) }
            } else if "\(child.value)" == "pending" {
                return .pending
            }
        }
        return .other
    }

    /// The reason of an `unavailable(reason:)` payload: the string itself, or the first string in a tuple.
    private static func reason(in payload: Any) -> String {
        if let reason = payload as? String { return reason }
        for child in Mirror(reflecting: payload).children {
            if let reason = child.value as? String { return reason }
        }
        return ""
    }

    /// The reading as sorted-key JSON: equal for equal readings (the time included), for readings of any type.
    package static func identity(of reading: Any) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let encodable = reading as? any Encodable, let data = try? encoder.encode(encodable) else {
            return "unencodable \(reading)"
        }
        return String(decoding: data, as: UTF8.self)
    }
}
