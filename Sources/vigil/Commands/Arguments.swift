import VigilSensors

/// The parsed command line: the command, its positional words, and the options.
struct Arguments {
    var command: String?
    var positional: [String] = []
    var options = SourceCatalog.Options()
    var json = false
    var help = false

    /// Parses `arguments` (without the program name).
    ///
    /// - Throws: ``ToolError`` for an unknown option or an option missing its value.
    init(_ arguments: [String]) throws(ToolError) {
        var words = arguments[...]
        while let word = words.popFirst() {
            switch word {
            case "--help", "-h": help = true
            case "--json": json = true
            case "--sys-root": options.sysfsRoot = try Self.value(of: word, from: &words)
            case "--proc-root": options.procfsRoot = try Self.value(of: word, from: &words)
            case "--netns": options.networkNamespace = try Self.value(of: word, from: &words)
            case "--":
                positional += words
                words = []
            default:
                if word.hasPrefix("-") && word.count > 1 { throw .usage("unknown option \(word); see vigil --help") }
                if command == nil { command = word } else { positional.append(word) }
            }
        }
    }

    private static func value(of option: String, from words: inout ArraySlice<String>) throws(ToolError) -> String {
        guard let value = words.popFirst() else { throw .usage("\(option) needs a value") }
        return value
    }
}
