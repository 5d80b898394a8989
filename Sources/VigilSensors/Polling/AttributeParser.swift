/// Pure parsing of attribute text into numbers, with errors that name the attribute.
///
/// Every function takes the text as read (surrounding white space is ignored) and the path it came from, and either
/// returns a value or throws ``SensorError/malformedValue(path:text:expected:)`` /
/// ``SensorError/valueOutOfRange(path:value:range:)``. None of them traps, whatever the input.
enum AttributeParser {
    /// Parses a decimal integer such as `"-1500"`.
    static func integer(_ text: String, path: String) throws(SensorError) -> Int {
        let trimmed = text.trimmingWhitespace()
        guard let value = Int(trimmed) else {
            throw SensorError.malformedValue(path: path, text: text, expected: "an integer")
        }
        return value
    }

    /// Parses a decimal integer and checks it lies in `range`.
    ///
    /// - Parameter unit: The attribute's own unit (`"m°C"`, `"µWh"`), quoted after the value and the range in the
    ///   error; empty for a unitless count.
    static func integer(
        _ text: String, path: String, in range: ClosedRange<Int>, unit: String = ""
    ) throws(SensorError) -> Int {
        let value = try integer(text, path: path)
        guard range.contains(value) else {
            let suffix = unit.isEmpty ? "" : " " + unit
            throw SensorError.valueOutOfRange(
                path: path, value: String(value) + suffix, range: "\(range.lowerBound)...\(range.upperBound)" + suffix)
        }
        return value
    }

    /// Parses a finite decimal number such as `"12.34"`.
    static func double(_ text: String, path: String) throws(SensorError) -> Double {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.contains(where: { $0.isLetter }), let value = Double(trimmed), value.isFinite else {
            throw SensorError.malformedValue(path: path, text: text, expected: "a decimal number")
        }
        return value
    }

    /// Parses a `0`/`1` flag.
    static func flag(_ text: String, path: String) throws(SensorError) -> Bool {
        switch text.trimmingWhitespace() {
        case "0": return false
        case "1": return true
        default: throw SensorError.malformedValue(path: path, text: text, expected: "0 or 1")
        }
    }

    /// Parses a non-empty single-line word, for names and enumerations.
    static func word(_ text: String, path: String) throws(SensorError) -> String {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty, !trimmed.contains("\n") else {
            throw SensorError.malformedValue(path: path, text: text, expected: "a single-line name")
        }
        return trimmed
    }
}
