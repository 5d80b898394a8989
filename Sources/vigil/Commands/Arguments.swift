import Glibc
import VigilSensors

/// The parsed command line: the command, its positional words, and the options the command's ``CommandSpec`` allows.
struct Arguments {
    var command: String?
    var positional: [String] = []
    /// The values given to each option, by long name; a flag has one empty value each time it is given.
    private var given: [String: [String]] = [:]

    /// Parses `arguments` (without the program name) against the command's option table.
    ///
    /// - Throws: ``ToolError`` (usage) for an unknown command or option, or an option missing its value.
    init(_ arguments: [String]) throws(ToolError) {
        var words = arguments[...]
        var spec = CommandSpec.tool
        while let word = words.popFirst() {
            if word == "--" {
                positional += words
                break
            }
            guard word.hasPrefix("-") && word.count > 1 else {
                if command == nil {
                    guard let named = CommandSpec.named(word) else {
                        throw .usage("unknown command \"\(word)\"; see vigil --help")
                    }
                    command = word
                    spec = named
                } else {
                    positional.append(word)
                }
                continue
            }
            let (name, inline) = Self.split(word)
            let options = spec.allOptions + (command == nil ? [] : CommandSpec.tool.options)
            guard let option = options.first(where: { $0.long == name || $0.short == name }) else {
                let command = command.map { " for \($0)" } ?? ""
                throw .usage("unknown option \(name)\(command); see vigil \(self.command ?? "") --help")
            }
            if option.value != nil {
                guard let value = inline ?? words.popFirst() else {
                    throw .usage("\(option.long) needs a value: \(option.long) \(option.value ?? "")")
                }
                given[option.long, default: []].append(value)
            } else {
                guard inline == nil else { throw .usage("\(option.long) takes no value") }
                given[option.long, default: []].append("")
            }
        }
    }

    /// `--name=value` split in two; other words unchanged.
    private static func split(_ word: String) -> (String, String?) {
        guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }

    /// Whether the flag `long` was given.
    func flag(_ long: String) -> Bool { given[long] != nil }

    /// The last value given to `long`.
    func value(_ long: String) -> String? { given[long]?.last }

    /// Every value given to `long`, in order.
    func values(_ long: String) -> [String] { given[long] ?? [] }

    var help: Bool { flag("--help") }
    var json: Bool { flag("--json") }

    /// The catalog options, with `--sys-root`, `--proc-root`, `--etc-root`, `--dev-root` and `--declination`
    /// checked.
    ///
    /// - Throws: ``ToolError`` (usage) naming a root that is empty or not a directory, so that a mistyped path is not
    ///   later blamed on the kernel, or a declination that is not a number of degrees from -180 to 180.
    func sourceOptions() throws(ToolError) -> SourceCatalog.Options {
        var options = SourceCatalog.Options()
        let roots = [
            ("--sys-root", \SourceCatalog.Options.sysfsRoot), ("--proc-root", \.procfsRoot), ("--etc-root", \.etcRoot),
            ("--dev-root", \.devRoot),
        ]
        for (long, keyPath) in roots {
            guard let path = value(long) else { continue }
            var status = stat()
            guard !path.isEmpty, stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
                throw .usage("\(long) \"\(path)\": no such directory")
            }
            options[keyPath: keyPath] = path
        }
        options.networkNamespace = value("--netns")
        if let text = value("--declination") {
            guard let degrees = Double(text), (try? Compass(declination: degrees)) != nil else {
                throw .usage("--declination needs degrees from -180 (west) to 180 (east), got \"\(text)\"")
            }
            options.declination = degrees
        }
        if let text = value("--mark") {
            let parsed = text.hasPrefix("0x") ? UInt32(text.dropFirst(2), radix: 16) : UInt32(text)
            guard let mark = parsed else { throw .usage("--mark needs a number (decimal or 0x hex), got \"\(text)\"") }
            options.firewallMark = mark
        }
        return options
    }

    /// The value of `long` as a whole number of at least 1.
    func count(_ long: String) throws(ToolError) -> Int? {
        guard let text = value(long) else { return nil }
        guard let count = Int(text), count > 0 else {
            throw .usage("\(long) needs a whole number above 0, got \"\(text)\"")
        }
        return count
    }

    /// The value of `long` as a duration: `5s`, `200ms`, `1.5s`, `2m`, `1h`, or a number of seconds.
    func duration(_ long: String) throws(ToolError) -> Duration? {
        guard let text = value(long) else { return nil }
        return try Self.duration(text, option: long)
    }

    /// `text` as a duration (see ``duration(_:)``); `option` names the option in the error.
    static func duration(_ text: String, option long: String) throws(ToolError) -> Duration {
        let units: [(String, Double)] = [("ms", 1e-3), ("us", 1e-6), ("s", 1), ("m", 60), ("h", 3600)]
        var number = Substring(text)
        var scale = 1.0
        for (suffix, factor) in units where text.hasSuffix(suffix) {
            number = text.dropLast(suffix.count)
            scale = factor
            break
        }
        guard let value = Double(number), value.isFinite, value > 0, value * scale < 1e9 else {
            throw .usage("\(long) needs a duration such as 5s or 200ms, got \"\(text)\"")
        }
        return Duration.nanoseconds(Int64(value * scale * 1e9))
    }
}
