import Dispatch
import Foundation

/// Prints readings on one serial queue: a readable line each, or one JSON object a line with `--json`.
final class Emitter: Sendable {
    /// The queue readings are delivered and printed on.
    let queue = DispatchQueue(label: "vigil.output")
    let json: Bool

    init(json: Bool) { self.json = json }

    private struct Line<Reading: Encodable>: Encodable {
        let source: String
        let reading: Reading
    }

    /// Prints one reading; call on ``queue``.
    func emit<Reading: Encodable & CustomStringConvertible>(source: String, reading: Reading) {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            guard let data = try? encoder.encode(Line(source: source, reading: reading)) else { return }
            writeLine(String(decoding: data, as: UTF8.self), to: 1)
        } else {
            writeLine("\(source): \(reading)", to: 1)
        }
    }
}
