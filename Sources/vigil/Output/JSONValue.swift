/// A JSON value whose objects keep their keys in the order they were encoded, written as one line.
///
/// The tool builds its JSON lines from this tree instead of `JSONEncoder` text, so that it can move a reading's fields
/// into the envelope, rename the ones that clash, and turn numbers that are not finite into `null`.
enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// A number already in JSON's syntax (finite).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.text == rhs.text }

    /// The fields of an object; empty for any other value.
    var fields: [(key: String, value: JSONValue)] {
        if case .object(let fields) = self { return fields }
        return []
    }

    /// The value of the field `key` of an object.
    subscript(key: String) -> JSONValue? { fields.first { $0.key == key }?.value }

    /// The string, when the value is one.
    var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The value as JSON text on one line: every control character in a string is escaped, so no newline is left.
    var text: String {
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .number(let text): output += text
        case .string(let string): Self.writeString(string, to: &output)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                element.write(to: &output)
            }
            output += "]"
        case .object(let fields):
            output += "{"
            for (index, field) in fields.enumerated() {
                if index > 0 { output += "," }
                Self.writeString(field.key, to: &output)
                output += ":"
                field.value.write(to: &output)
            }
            output += "}"
        }
    }

    /// Writes `string` quoted, escaping what RFC 8259 requires plus DEL and the C1 controls, which terminals act on.
    private static func writeString(_ string: String, to output: inout String) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
