/// The part of YAML a web configuration file uses: block mappings nested by indentation, plain, single- and
/// double-quoted scalars, `{}` for an empty mapping, comments and a leading `---`. Anything else (sequences, anchors,
/// flow collections with content, multi-line scalars, tabs in indentation) is refused with its line number rather
/// than guessed at.
enum SimpleYAML {
    /// A parsed value.
    indirect enum Node: Equatable {
        case scalar(String)
        /// Keys in file order.
        case mapping([(key: String, value: Node, line: Int)])
        case null

        static func == (lhs: Node, rhs: Node) -> Bool {
            switch (lhs, rhs) {
            case (.scalar(let a), .scalar(let b)): return a == b
            case (.null, .null): return true
            case (.mapping(let a), .mapping(let b)):
                return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
            default: return false
            }
        }
    }

    /// A syntax error and the 1-based line it is on.
    struct SyntaxError: Error, Equatable {
        let line: Int
        let reason: String
    }

    private struct Line {
        let number: Int
        let indent: Int
        let key: String
        /// What follows `key:` on the line, comment removed; empty when a nested mapping (or nothing) follows.
        let rest: Substring
    }

    /// Parses `text`, whose top level must be a mapping (or empty).
    static func parse(_ text: String) throws(SyntaxError) -> Node {
        var lines: [Line] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            var content = try withoutComment(raw.hasSuffix("\r") ? raw.dropLast() : raw, line: number)
            while content.last == " " { content = content.dropLast() }
            if content.isEmpty || (lines.isEmpty && content == "---") { continue }
            let indent = content.prefix { $0 == " " }.count
            if content.dropFirst(indent).first == "\t" {
                throw SyntaxError(line: number, reason: "a tab in indentation")
            }
            let body = content.dropFirst(indent)
            if body.hasPrefix("- ") || body == "-" {
                throw SyntaxError(line: number, reason: "a list, where a mapping is expected")
            }
            let (key, rest) = try splitKey(body, line: number)
            lines.append(Line(number: number, indent: indent, key: key, rest: rest.drop { $0 == " " }))
        }
        var position = 0
        guard !lines.isEmpty else { return .mapping([]) }
        let node = try mapping(lines, at: &position, indent: lines[0].indent)
        if position < lines.count {
            throw SyntaxError(line: lines[position].number, reason: "indentation does not match any mapping above")
        }
        return node
    }

    private static func mapping(_ lines: [Line], at position: inout Int, indent: Int) throws(SyntaxError) -> Node {
        var entries: [(key: String, value: Node, line: Int)] = []
        while position < lines.count, lines[position].indent == indent {
            let line = lines[position]
            position += 1
            if entries.contains(where: { $0.key == line.key }) {
                throw SyntaxError(line: line.number, reason: "\(line.key) appears twice")
            }
            let value: Node
            if line.rest.isEmpty {
                if position < lines.count, lines[position].indent > indent {
                    value = try mapping(lines, at: &position, indent: lines[position].indent)
                } else {
                    value = .null
                }
            } else {
                value = try scalar(line.rest, line: line.number)
            }
            entries.append((line.key, value, line.number))
        }
        if position < lines.count, lines[position].indent > indent {
            throw SyntaxError(line: lines[position].number, reason: "unexpected indentation")
        }
        return .mapping(entries)
    }

    /// The line without a comment: `#` at its start or after a space, outside quotes.
    private static func withoutComment(_ line: Substring, line number: Int) throws(SyntaxError) -> Substring {
        var quote: Character?
        var previous: Character = " "
        for index in line.indices {
            let character = line[index]
            if let open = quote {
                if character == open && !(open == "\"" && previous == "\\") { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "#" && (previous == " " || previous == "\t") {
                return line[..<index]
            }
            previous = character
        }
        return line
    }

    private static func splitKey(_ body: Substring, line: Int) throws(SyntaxError) -> (String, Substring) {
        if let first = body.first, first == "\"" || first == "'" {
            let (key, end) = try quoted(body, line: line)
            let after = body[end...]
            guard after.first == ":" else { throw SyntaxError(line: line, reason: "expected : after the key") }
            let rest = after.dropFirst()
            guard rest.isEmpty || rest.first == " " else {
                throw SyntaxError(line: line, reason: "expected a space after :")
            }
            return (key, rest)
        }
        var index = body.startIndex
        while index < body.endIndex {
            if body[index] == ":" {
                let next = body.index(after: index)
                if next == body.endIndex || body[next] == " " {
                    return (String(body[..<index]), body[next...])
                }
            }
            index = body.index(after: index)
        }
        throw SyntaxError(line: line, reason: "expected KEY: VALUE")
    }

    private static func scalar(_ text: Substring, line: Int) throws(SyntaxError) -> Node {
        if text == "{}" { return .mapping([]) }
        if text == "~" || text == "null" { return .null }
        if let first = text.first, first == "\"" || first == "'" {
            let (value, end) = try quoted(text, line: line)
            guard text[end...].allSatisfy({ $0 == " " }) else {
                throw SyntaxError(line: line, reason: "text after a quoted value")
            }
            return .scalar(value)
        }
        if let first = text.first, "[{&*!|>%@`".contains(first) {
            throw SyntaxError(line: line, reason: "\(first) is not supported here; quote the value")
        }
        return .scalar(String(text))
    }

    /// A quoted scalar at the start of `text` and the index after its closing quote.
    private static func quoted(_ text: Substring, line: Int) throws(SyntaxError) -> (String, Substring.Index) {
        let open = text.first!
        var value = ""
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            let character = text[index]
            index = text.index(after: index)
            if character == open {
                // In single quotes, '' is a quote.
                if open == "'", index < text.endIndex, text[index] == "'" {
                    value.append("'")
                    index = text.index(after: index)
                    continue
                }
                return (value, index)
            }
            if open == "\"", character == "\\" {
                guard index < text.endIndex else { break }
                let escaped = text[index]
                index = text.index(after: index)
                switch escaped {
                case "n": value.append("\n")
                case "t": value.append("\t")
                case "\\", "\"", "/": value.append(escaped)
                default: throw SyntaxError(line: line, reason: "unsupported escape \\\(escaped)")
                }
                continue
            }
            value.append(character)
        }
        throw SyntaxError(line: line, reason: "an unterminated quoted value")
    }
}
