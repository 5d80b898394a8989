/// Control characters escaped the way `ls -b` does, for every line `vigil` shows a person: `watch`'s readable
/// lines, `list`, and `top`'s screen.
enum ControlEscape {
    /// `text` with every control character escaped the way `ls -b` does (`\n`, `\t`, … or three octal digits per
    /// UTF-8 byte), so nothing in a name or reading moves the cursor or changes the terminal's state.
    ///
    /// A backslash is kept as it is: the sources' own descriptions already escape file names (``BytePath``), and
    /// escaping them again would double their backslashes.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case "\u{07}": result += "\\a"
            case "\u{08}": result += "\\b"
            case "\u{0B}": result += "\\v"
            case "\u{0C}": result += "\\f"
            default:
                for byte in String(scalar).utf8 {
                    let octal = String(byte, radix: 8)
                    result += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
                }
            }
        }
        return result
    }

    /// C0 and C1 controls, DEL, and the bidirectional overrides that would reorder what follows them.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
