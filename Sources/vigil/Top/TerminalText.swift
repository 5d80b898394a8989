/// Text sized for a terminal cell grid: width counted in columns (escaping is ``ControlEscape``'s).
enum TerminalText {

    /// The columns `scalar` takes in a terminal: 0 for combining marks and zero-width characters, 2 for East Asian
    /// wide and fullwidth characters and most emoji, 1 otherwise.
    static func width(of scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default: return 1
        }
    }

    /// The columns `text` takes.
    static func width(of text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + width(of: $1) }
    }

    /// `text` cut to at most `columns` columns, ending in "…" when it was cut, and padded with spaces to exactly
    /// `columns` when `pad` is set.
    static func fitted(_ text: String, to columns: Int, pad: Bool = false) -> String {
        guard columns > 0 else { return "" }
        let total = width(of: text)
        if total <= columns { return pad ? text + String(repeating: " ", count: columns - total) : text }
        var result = ""
        var used = 0
        for scalar in text.unicodeScalars {
            let next = width(of: scalar)
            if used + next > columns - 1 { break }
            result.unicodeScalars.append(scalar)
            used += next
        }
        result += "…"
        used += 1
        return pad ? result + String(repeating: " ", count: columns - used) : result
    }
}
