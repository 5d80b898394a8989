/// The `KEY=value` files of os-release(5) and machine-info(5), parsed as the freedesktop rules say and systemd reads
/// them: one assignment a line, no variable expansion, no command substitution.
///
/// - A line whose first non-blank character is `#` is a comment; a blank line is ignored; a trailing `\r` (a file
///   saved with CRLF line ends) is dropped.
/// - The key is a shell variable name (`[A-Za-z_][A-Za-z0-9_]*`); blanks around `=` are allowed.
/// - The value is a run of unquoted, `"…"` and `'…'` parts, joined. Inside double quotes a backslash escapes `"`,
///   `\`, `` ` `` and `$` and is kept before anything else; inside single quotes nothing is escaped; outside quotes a
///   backslash escapes the next character. Blanks inside a value are kept, blanks at its end outside quotes are not.
/// - `$NAME` is kept as written: nothing is expanded.
/// - A line with no `=`, a bad key, an unterminated quote or a backslash at its very end is malformed: it is skipped
///   and its number reported, never guessed at.
/// - A key given twice keeps its last value, as a shell would.
package struct EnvironmentFile: Sendable, Equatable {
    /// The assignments, last value of each key.
    package var values: [String: String]
    /// The 1-based numbers of the malformed lines that were skipped.
    package var malformedLines: [Int]

    /// Parses the text of an os-release or machine-info file.
    ///
    /// The text is read as Unicode scalars, not characters: a quote followed by a combining mark, or `\r\n` (one
    /// `Character`), is still a quote and a line end.
    package init(parsing text: String) {
        values = [:]
        malformedLines = []
        let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, rawLine) in lines.enumerated() {
            var line = rawLine
            if line.last == "\r" { line.removeLast() }
            let content = line.drop(while: Self.isBlank)
            if content.isEmpty || content.first == "#" { continue }
            guard let (key, value) = Self.assignment(content) else {
                malformedLines.append(index + 1)
                continue
            }
            values[key] = value
        }
    }

    private typealias Scalars = Substring.UnicodeScalarView

    private static func isBlank(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" }

    /// `KEY=value` split and unquoted, or nil when the line is malformed.
    private static func assignment(_ line: Scalars) -> (String, String)? {
        guard let equals = line.firstIndex(of: "=") else { return nil }
        var key = line[..<equals]
        while let last = key.last, isBlank(last) { key.removeLast() }
        guard isName(key), let value = unquoted(line[line.index(after: equals)...].drop(while: isBlank)) else {
            return nil
        }
        return (String(key), value)
    }

    private static func isName(_ key: Scalars) -> Bool {
        guard let first = key.first, first == "_" || isLetter(first) else { return false }
        return key.allSatisfy { $0 == "_" || isLetter($0) || ("0"..."9").contains($0) }
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    /// The value with its quotes and escapes resolved, or nil for an unterminated quote or a trailing backslash.
    private static func unquoted(_ text: Scalars) -> String? {
        var value: [Unicode.Scalar] = []
        // Where the value ends if only blanks outside quotes follow: trailing unquoted blanks are dropped.
        var keptLength = 0
        var scalars = text.makeIterator()
        while let scalar = scalars.next() {
            switch scalar {
            case "\"":
                while true {
                    guard let inner = scalars.next() else { return nil }
                    if inner == "\"" { break }
                    if inner == "\\" {
                        guard let escaped = scalars.next() else { return nil }
                        if !"\"\\`$".unicodeScalars.contains(escaped) { value.append("\\") }
                        value.append(escaped)
                    } else {
                        value.append(inner)
                    }
                }
                keptLength = value.count
            case "'":
                while true {
                    guard let inner = scalars.next() else { return nil }
                    if inner == "'" { break }
                    value.append(inner)
                }
                keptLength = value.count
            case "\\":
                guard let escaped = scalars.next() else { return nil }
                value.append(escaped)
                keptLength = value.count
            default:
                value.append(scalar)
                if !isBlank(scalar) { keptLength = value.count }
            }
        }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: value.prefix(keptLength))
        return String(kept)
    }
}
