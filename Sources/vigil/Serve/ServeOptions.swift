import VigilPrometheus
import VigilSensors

/// `vigil serve`'s command line: its own options, the global ones, and the sources.
struct ServeOptions {
    var listen: ListenAddress?
    var textfile: String?
    var interval: Duration = .seconds(15)
    var options = SourceCatalog.Options()
    var help = false
    /// Positional words after `serve`: sources and their arguments.
    var sources: [String] = []

    /// Whether `words` (the arguments without the program name) ask for `serve` or its help.
    static func isServe(_ words: [String]) -> Bool {
        let positional = positionalWords(words)
        return positional.first == "serve" || positional.prefix(2) == ["help", "serve"]
    }

    /// Parses the arguments (without the program name).
    ///
    /// - Throws: ``ToolError`` (status 2) for an unknown option, a missing value, a bad address or duration.
    init(_ words: [String]) throws(ToolError) {
        var rest = words[...]
        var sawCommand = false
        var textfileInterval = false
        while let word = rest.popFirst() {
            switch word {
            case "--help", "-h": help = true
            case "--listen":
                do {
                    listen = try ListenAddress(parsing: try Self.value(of: word, from: &rest))
                } catch let error as MetricsServerError {
                    throw .usage("--listen: \(error)")
                } catch let error as ToolError {
                    throw error
                } catch {
                    throw .usage("--listen: \(error)")
                }
            case "--textfile": textfile = try Self.value(of: word, from: &rest)
            case "--interval":
                interval = try Self.duration(try Self.value(of: word, from: &rest))
                textfileInterval = true
            case "--sys-root": options.sysfsRoot = try Self.value(of: word, from: &rest)
            case "--proc-root": options.procfsRoot = try Self.value(of: word, from: &rest)
            case "--netns": options.networkNamespace = try Self.value(of: word, from: &rest)
            case "--":
                sources += rest
                rest = []
            default:
                if word.hasPrefix("-") && word.count > 1 {
                    throw .usage("unknown option \(word); see vigil help serve")
                }
                if word == "help" && !sawCommand {
                    help = true
                } else if !sawCommand {
                    sawCommand = true
                } else {
                    sources.append(word)
                }
            }
        }
        if textfileInterval && textfile == nil { throw .usage("--interval applies to --textfile; give both") }
    }

    private static func positionalWords(_ words: [String]) -> [String] {
        var result: [String] = []
        var rest = words[...]
        let takesValue: Set = ["--listen", "--textfile", "--interval", "--sys-root", "--proc-root", "--netns"]
        while let word = rest.popFirst(), result.count < 2 {
            if takesValue.contains(word) {
                _ = rest.popFirst()
            } else if !word.hasPrefix("-") {
                result.append(word)
            }
        }
        return result
    }

    private static func value(of option: String, from words: inout ArraySlice<String>) throws(ToolError) -> String {
        guard let value = words.popFirst() else { throw .usage("\(option) needs a value") }
        return value
    }

    /// `15s`, `500ms`, `2m`, `1h`, or a number of seconds; at least 1 ms.
    static func duration(_ text: String) throws(ToolError) -> Duration {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        var number = Substring(text)
        var scale = 1.0
        for (suffix, factor) in units where text.hasSuffix(suffix) {
            number = text.dropLast(suffix.count)
            scale = factor
            break
        }
        guard let value = Double(number), value.isFinite, value * scale >= 0.001, value * scale <= 86_400 * 365 else {
            throw .usage("--interval: \"\(text)\" is not a duration from 1ms to a year (15s, 500ms, 2m, 1h)")
        }
        return .nanoseconds(Int64((value * scale * 1e9).rounded()))
    }
}
