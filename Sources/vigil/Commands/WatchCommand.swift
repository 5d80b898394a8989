import Dispatch
import Glibc
import VigilSensors

/// `vigil watch`: starts the named sources (or every available one) and prints readings until a signal.
enum WatchCommand {
    /// The sources to start, each with its argument.
    static func selection(_ arguments: Arguments) throws(ToolError) -> [(CatalogEntry, String?)] {
        if arguments.positional.isEmpty {
            let available = Catalog.all.filter {
                $0.argumentName == nil && $0.availability(arguments.context).isAvailable
            }
            guard !available.isEmpty else { throw ToolError(message: "no source is available here", status: 1) }
            return available.map { ($0, nil) }
        }
        var selected: [(CatalogEntry, String?)] = []
        var words = arguments.positional[...]
        while let id = words.popFirst() {
            guard let entry = Catalog.entry(id) else {
                let known = Catalog.all.map(\.id).joined(separator: ", ")
                throw .usage("unknown source \"\(id)\" (known: \(known)); see vigil list")
            }
            var argument: String?
            if let name = entry.argumentName {
                guard let value = words.popFirst() else {
                    throw .usage("\(id) needs \(name): vigil watch \(id) \(name)")
                }
                argument = value
            }
            selected.append((entry, argument))
        }
        return selected
    }

    /// Starts the sources, installs the signal handlers and never returns; exits 0 on SIGINT/SIGTERM.
    static func run(_ arguments: Arguments) throws(ToolError) -> Never {
        let selected = try selection(arguments)
        let emitter = Emitter(json: arguments.json)
        var running: [RunningSource] = []
        for (entry, argument) in selected {
            do {
                running.append(try entry.start(arguments.context, argument, emitter))
            } catch {
                for source in running { source.stop() }
                throw ToolError(message: "\(entry.id): \(error)", status: 1)
            }
        }
        let started = running
        let names = selected.map { entry, argument in argument.map { "\(entry.id) \($0)" } ?? entry.id }
            .joined(separator: ", ")
        printError("vigil: watching \(names); Ctrl-C to stop")
        var signalSources: [DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler {
                for running in started { running.stop() }
                // Print what was already delivered, then leave.
                emitter.queue.sync {}
                exit(0)
            }
            source.resume()
            signalSources.append(source)
        }
        withExtendedLifetime(signalSources) { dispatchMain() }
    }
}

/// Writes one line to standard error.
func printError(_ line: String) { writeLine(line, to: 2) }

/// Writes one line to a descriptor at once (unbuffered, so a pipe reader sees it immediately).
func writeLine(_ line: String, to descriptor: Int32) {
    var text = line + "\n"
    text.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
