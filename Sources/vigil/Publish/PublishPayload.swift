import Foundation
import VigilSensors

/// The one place `vigil publish` turns a reading into its MQTT payload: the CLI's JSON envelope
/// (``JSONEnvelope/line(source:reading:)``), so a subscriber sees exactly what `vigil watch --json` prints.
enum PublishPayload {
    /// The payload for one reading of `source`.
    static func envelope(source: String, reading: any CatalogReading) -> [UInt8] {
        Array(JSONEnvelope.line(source: source, reading: reading).utf8)
    }

    /// Whether the reading holds a value (not pending, not unavailable), judged from its payload.
    static func hasValue(_ payload: [UInt8]) -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any] else {
            return false
        }
        return object["status"] as? String == "ok"
    }
}
