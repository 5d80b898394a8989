import Dispatch
import Glibc
import VigilSensors

/// `vigil watch`: starts the named sources (or every available one) and prints readings until a signal.
enum WatchCommand {
    /// The sources to start, each with its argument.
    static func selection(_ arguments: Arguments) throws(ToolError) -> [(SourceCatalog.Entry, String?)] {
        if arguments.positional.isEmpty {
            let available = SourceCatalog.builtIn.filter {
                $0.argumentName == nil && $0.availability(arguments.options).isAvailable
            }
            guard !available.isEmpty else { throw ToolError(message: "no source is available here", status: 1) }
            return available.map { ($0, nil) }
        }
        var selected: [(SourceCatalog.Entry, String?)] = []
        var words = arguments.positional[...]
        while let id = words.popFirst() {
            guard let entry = SourceCatalog.entry(id: id) else {
                let known = SourceCatalog.builtIn.map(\.id).joined(separator: ", ")
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

    /// Starts the sources and prints readings until SIGINT or SIGTERM, then stops them and returns.
    ///
    /// The main thread waits on a semaphore (not `dispatchMain()`, which would end the main thread), readings are
    /// printed on the emitter's queue, and the signals arrive through Dispatch signal sources.
    static func run(_ arguments: Arguments) throws(ToolError) {
        let selected = try selection(arguments)
        let emitter = Emitter(json: arguments.json)
        let stop = DispatchSemaphore(value: 0)
        let signalQueue = DispatchQueue(label: "vigil.signals")
        let signalSources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: signalQueue)
            source.setEventHandler { stop.signal() }
            source.resume()
            return source
        }
        defer { for source in signalSources { source.cancel() } }
        var running: [RunningSource] = []
        defer {
            for source in running { source.stop() }
            // Print what was already delivered before returning.
            emitter.queue.sync {}
        }
        for (entry, argument) in selected {
            do {
                let source = try entry.make(arguments.options, argument: argument.map(CommandLinePath.bytes(of:)))
                running.append(try RunningSource(source, emitter: emitter))
            } catch {
                throw ToolError(message: "\(entry.id): \(error)", status: 1)
            }
        }
        let names = selected.map { entry, argument in argument.map { "\(entry.id) \($0)" } ?? entry.id }
            .joined(separator: ", ")
        printError("vigil: watching \(names); Ctrl-C to stop")
        stop.wait()
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
