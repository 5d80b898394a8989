/// The readable form of a reading: one line, with control characters escaped the way `ls -b` does.
enum HumanLine {
    /// `source: description`, prefixed with `[time] ` when `timestamps` is set (as `ip -ts` does).
    ///
    /// File names arrive already escaped by ``BytePath``'s description (`caf\351`, `two\nlines`); anything else
    /// that holds a control character (a device property, a reason quoting a file) is escaped here, so one reading
    /// is always one line and no escape sequence reaches the terminal.
    static func line(source: String, description: String, time: String?, timestamps: Bool) -> String {
        let text = escaped(source + ": " + description)
        guard timestamps, let time else { return text }
        return "[" + time + "] " + text
    }

    /// `text` with C0 and C1 control characters and DEL written as `\n`, `\t`, `\r` or three octal digits per byte.
    static func escaped(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": output += "\\n"
            case "\t": output += "\\t"
            case "\r": output += "\\r"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                for byte in String(scalar).utf8 {
                    let octal = String(byte, radix: 8)
                    output += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
                }
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
