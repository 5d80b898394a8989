extension BytePath {
    /// The path's bytes in standard base64 (RFC 4648, with padding), for a text format that must carry any bytes.
    public var base64: String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group = UInt32(bytes[index]) << 16
            if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
            if count > 2 { group |= UInt32(bytes[index + 2]) }
            for position in 0..<4 {
                if position <= count {
                    output.append(alphabet[Int((group >> UInt32(18 - 6 * position)) & 0x3F)])
                } else {
                    output.append(UInt8(ascii: "="))
                }
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Encodes `bytes` as their text when they are valid UTF-8, else as the array of their values: a JSON string is
    /// then always the exact bytes, never a look-alike with U+FFFD in place of some.
    static func encode(textOrBytes bytes: [UInt8], to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let string = String(validating: bytes, as: UTF8.self) {
            try container.encode(string)
        } else {
            try container.encode(bytes)
        }
    }

    /// Escapes `bytes` on one line the way `ls -b` does; see ``description``.
    static func escape(_ bytes: [UInt8]) -> String {
        var text = ""
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                appendEscaped(UTF8.decode(encoded), encoded: Array(encoded), to: &text)
                offset += encoded.count
            case .error(let length):
                for byte in bytes[offset..<(offset + length)] { appendOctal(byte, to: &text) }
                offset += length
            case .emptyInput:
                return text
            }
        }
    }

    private static func appendEscaped(_ scalar: Unicode.Scalar, encoded: [UInt8], to text: inout String) {
        switch scalar {
        case "\\": text += "\\\\"
        case " ": text += "\\ "
        case "\u{07}": text += "\\a"
        case "\u{08}": text += "\\b"
        case "\t": text += "\\t"
        case "\n": text += "\\n"
        case "\u{0B}": text += "\\v"
        case "\u{0C}": text += "\\f"
        case "\r": text += "\\r"
        default:
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator:
                for byte in encoded { appendOctal(byte, to: &text) }
            default:
                text.unicodeScalars.append(scalar)
            }
        }
    }

    private static func appendOctal(_ byte: UInt8, to text: inout String) {
        let digits = String(byte, radix: 8)
        text += "\\" + String(repeating: "0", count: 3 - digits.count) + digits
    }
}
