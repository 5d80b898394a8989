/// Prometheus' naming rules for metric and label names, and the repair of names that break them.
///
/// A metric name matches `[a-zA-Z_:][a-zA-Z0-9_:]*`; a label name matches `[a-zA-Z_][a-zA-Z0-9_]*` and must not
/// begin with `__`, which Prometheus reserves for itself. Names built from outside text (a chip's label, a user's
/// string) are repaired rather than refused, so an exposition is always valid.
public enum MetricName {
    /// `name` with every character a metric name cannot hold replaced by `_`, and `_` put before a leading digit;
    /// an empty name becomes `_`.
    ///
    /// - Parameter name: Any text.
    /// - Returns: A valid metric name; `name` itself when it already is one.
    public static func sanitized(_ name: String) -> String {
        repaired(name, allowsColon: true)
    }

    /// `name` repaired like ``sanitized(_:)``, without colons (which label names cannot hold), and with a leading
    /// `__` shortened to one `_`.
    ///
    /// - Parameter name: Any text.
    /// - Returns: A valid label name.
    public static func sanitizedLabel(_ name: String) -> String {
        var label = repaired(name, allowsColon: false)
        while label.hasPrefix("__") { label.removeFirst() }
        return label
    }

    /// Whether `name` is a valid metric name as it stands.
    public static func isValid(_ name: String) -> Bool { sanitized(name) == name }

    private static func repaired(_ name: String, allowsColon: Bool) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.utf8.count + 1)
        for byte in name.utf8 {
            let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            let allowed = isLetter || isDigit || byte == UInt8(ascii: "_") || (allowsColon && byte == UInt8(ascii: ":"))
            // A multi-byte character becomes one `_` (its continuation bytes add nothing).
            if allowed {
                bytes.append(byte)
            } else if byte & 0xC0 != 0x80 {
                bytes.append(UInt8(ascii: "_"))
            }
        }
        if let first = bytes.first, first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9") {
            bytes.insert(UInt8(ascii: "_"), at: 0)
        }
        return bytes.isEmpty ? "_" : String(decoding: bytes, as: UTF8.self)
    }
}
