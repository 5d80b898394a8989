import VigilSensors

/// The one place the tool's JSON lines are made: every command that prints or publishes readings as JSON (`watch`,
/// `get`, and `publish`) calls ``line(source:reading:)``, so that every consumer sees the same shape.
///
/// One reading is one object on one line:
///
/// ```json
/// {"time":"2026-12-04T17:10:00.123456Z","source":"cpu","status":"ok","total":0.12,"cores":[…]}
/// {"time":"…","source":"battery","status":"unavailable","reason":"no battery"}
/// {"time":"…","source":"files","status":"ok","event":"created","path":"/tmp/a","isDirectory":false}
/// ```
///
/// - `time`: when the reading was taken, RFC 3339 in UTC with microseconds.
/// - `source`: the catalog id.
/// - `status`: `"ok"`, `"pending"` (nothing read yet) or `"unavailable"` (with `reason`).
/// - `reason`: why a reading is unavailable, or which fields were not finite numbers (written as `null`).
/// - `event`: what happened, for event sources: a file-system event kind, a uevent action, `clockSet` or
///   `clockResumed`, or a network change.
/// - Then the reading's own fields. A reading that is not an object goes under `"value"`. A field whose name is one of
///   the envelope's is renamed: the network's connectivity status is `"network"` (`"satisfied"` or
///   `"unsatisfied"`, with `"networkReason"`); any other clashing field becomes `"reading"` plus the name
///   (`"readingStatus"`).
///
/// A name that is not UTF-8 (a file path, a mount point, a uevent value: any ``BytePath``) is the array of its byte
/// values (`"path":[99,97,102,233]`, as journald writes such a field), never a string with U+FFFD that would name
/// another file; every control character is escaped, so a line is valid JSON whatever a name holds.
enum JSONEnvelope {
    /// The envelope's own keys, which a reading's fields must not reuse.
    static let keys: Set<String> = ["time", "source", "status", "reason", "event"]

    /// The JSON line (without its newline) for one reading of the source `source`.
    ///
    /// - Parameters:
    ///   - source: The catalog id of the source that published the reading.
    ///   - reading: The reading.
    ///   - head: The reading's ``EnvelopeHead`` when the caller already has it (so it is not worked out twice).
    /// - Returns: One line of JSON; never fails.
    static func line(source: String, reading: any CatalogReading, head: EnvelopeHead? = nil) -> String {
        object(source: source, reading: reading, head: head).text
    }

    /// The envelope as a ``JSONValue`` object.
    static func object(source: String, reading: any CatalogReading, head: EnvelopeHead? = nil) -> JSONValue {
        let head = head ?? EnvelopeHead.of(reading)
        let encoder = JSONTreeEncoder()
        var fields: [(key: String, value: JSONValue)] = []
        if let body = head.body {
            let tree = encoder.encode(body)
            if case .object(let bodyFields) = tree {
                fields = bodyFields.filter { !head.omitted.contains($0.key) && $0.key != "time" }
            } else {
                fields = [("value", tree)]
            }
        }
        fields = fields.map { field in
            guard keys.contains(field.key) else { return field }
            let renamed =
                head.renamed[field.key] ?? "reading" + field.key.prefix(1).uppercased() + field.key.dropFirst()
            return (renamed, field.value)
        }
        var reasons = head.reason.map { [$0] } ?? []
        if !encoder.nonFinite.isEmpty {
            reasons.append("not a finite number: " + encoder.nonFinite.joined(separator: ", "))
        }
        var envelope: [(key: String, value: JSONValue)] = [
            ("time", .string(head.time.description)), ("source", .string(source)), ("status", .string(head.status)),
        ]
        if !reasons.isEmpty { envelope.append(("reason", .string(reasons.joined(separator: "; ")))) }
        if let event = head.event { envelope.append(("event", .string(event))) }
        return .object(envelope + head.extra + fields)
    }
}
