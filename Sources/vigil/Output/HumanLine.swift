/// The readable form of a reading: one line, with control characters escaped the way `ls -b` does.
enum HumanLine {
    /// `source: description`, prefixed with `[time] ` when `timestamps` is set (as `ip -ts` does).
    ///
    /// File names arrive already escaped by ``BytePath``'s description (`caf\351`, `two\nlines`); anything else
    /// that holds a control character (a device property, a reason quoting a file) is escaped here, so one reading
    /// is always one line and no escape sequence reaches the terminal.
    static func line(source: String, description: String, time: String?, timestamps: Bool) -> String {
        let text = ControlEscape.escaped(source + ": " + description)
        guard timestamps, let time else { return text }
        return "[" + time + "] " + text
    }
}
