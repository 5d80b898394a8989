import Foundation
import VigilSensors

/// The one place `vigil publish` turns a reading into its MQTT payload: the CLI's JSON envelope, one object,
/// `{"time":…,"source":…,"status":…,…}` with the reading's own fields.
///
/// Until the CLI's shared `JSONEnvelope.line(source:reading:)` exists here, this builds the same shape from the
/// reading's own JSON encoding (see ``Emitter``): its fields, plus `source`, plus `status` = `ok` when the reading
/// has a value (a pending or unavailable reading carries its own `status`). At merge, the body becomes
/// `Array(JSONEnvelope.line(source: source, reading: reading).utf8)`; nothing else depends on the exact shape.
enum PublishPayload {
    /// The payload for one reading of `source`.
    static func envelope(source: String, reading: any CatalogReading) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(Wrapper(reading: reading)), var text = String(data: data, encoding: .utf8)
        else { return Array(#"{"source":"\#(source)","status":"unavailable","reason":"cannot encode"}"#.utf8) }
        // `text` is `{"reading":X}`; a reading that is not an object (never the case for built-in sources) goes under
        // "value".
        text.removeFirst(#"{"reading":"#.count)
        text.removeLast()
        let fields = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
        let sourceField = #""source":"# + quoted(source)
        guard let fields else { return Array(("{" + sourceField + #","status":"ok","value":"# + text + "}").utf8) }
        let statusField = fields["status"] == nil ? #","status":"ok""# : ""
        let rest = text.dropFirst().dropLast()
        return Array(("{" + sourceField + statusField + (rest.isEmpty ? "" : ",") + rest + "}").utf8)
    }

    /// Whether the reading holds a value (not pending, not unavailable), judged from its payload.
    static func hasValue(_ payload: [UInt8]) -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any] else {
            return false
        }
        return object["status"] as? String == "ok"
    }

    private struct Wrapper: Encodable {
        let reading: any CatalogReading

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(reading, forKey: .reading)
        }

        enum Key: String, CodingKey { case reading }
    }

    private static func quoted(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
