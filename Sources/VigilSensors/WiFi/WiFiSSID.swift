/// A network name (SSID) as the air carries it: up to 32 bytes, not necessarily UTF-8 or even text.
///
/// ``description`` is the name as text when it is valid UTF-8 without control characters; otherwise each byte that is
/// not printable ASCII is shown as `\xNN` (and a backslash as `\\`), as `iw` shows it, so two different names never
/// look the same. As JSON, a valid UTF-8 name is its string and any other name the array of its byte values.
public struct WiFiSSID: Hashable, Sendable, Encodable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The name's bytes, exactly as broadcast.
    public let bytes: [UInt8]

    /// The name made of `bytes`.
    public init(bytes: some Sequence<UInt8>) { self.bytes = Array(bytes) }

    /// The name spelled by `string`'s UTF-8 bytes.
    public init(stringLiteral string: String) { bytes = Array(string.utf8) }

    /// The name as text when it is valid UTF-8, `nil` otherwise.
    public var string: String? { String(validating: bytes, as: UTF8.self) }

    /// Whether the name is empty (a hidden network's beacon, a wildcard scan).
    public var isEmpty: Bool { bytes.isEmpty }

    /// The name on one line; see the type's discussion.
    public var description: String {
        if let string, !string.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return string
        }
        var text = ""
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\\"): text += "\\\\"
            case 0x20..<0x7F: text.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16)
                text += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return text
    }

    /// Encodes the name as its text when it is valid UTF-8, else as its bytes.
    public func encode(to encoder: any Encoder) throws {
        try BytePath.encode(textOrBytes: bytes, to: encoder)
    }
}
