import Dispatch
import Glibc
import Synchronization
import VigilPrometheus
import VigilSensors

/// `vigil serve`: starts sources and serves their metrics over HTTP, or writes them to a text file, until a signal.
enum ServeCommand {
    /// Runs `vigil serve` until a signal.
    ///
    /// - Returns: The exit status: 130 after SIGINT, 143 after SIGTERM.
    static func run(_ arguments: Arguments) throws(ToolError) -> Int32 {
        HandledSignals.block(HandledSignals.stop)
        let parsed = try ServeOptions(arguments)
        let exporter = MetricsExporter()
        var running: [CatalogSource] = []
        defer { for source in running { source.stopMonitoring() } }
        for (entry, argument) in try selection(parsed) {
            let label = argument.map { "\(entry.id) \($0)" } ?? entry.id
            let availability = entry.availability(parsed.options)
            if argument == nil, !availability.isAvailable {
                // Hardware the machine lacks is no failure: no vigil_source_up series, only the reason in the info.
                let absent: Bool
                if case .unavailable(.missingDevice, _) = availability { absent = true } else { absent = false }
                exporter.add(collector: {
                    CatalogMetrics.unavailable(
                        id: entry.id, name: entry.name, reason: reason(availability), absent: absent)
                })
                continue
            }
            do {
                let source = try entry.make(parsed.options, argument: argument.map(CommandLinePath.bytes(of:)))
                exporter.add(source, argument: argument)
                try source.startMonitoring()
                running.append(source)
            } catch {
                printError("vigil: \(label): cannot start: \(error); reported as vigil_source_up 0")
                exporter.add(collector: {
                    CatalogMetrics.unavailable(id: entry.id, name: entry.name, reason: "\(error)")
                })
            }
        }
        // The server logs from the event loop every source shares: through a writer that never blocks it.
        let logWriter = LogWriter()
        defer { logWriter.flush(until: .now() + .milliseconds(500)) }
        let log: @Sendable (String) -> Void = { logWriter.log("vigil: " + $0) }
        var server: MetricsServer?
        if parsed.textfile == nil || parsed.listen != nil {
            let address = parsed.listen ?? .loopback
            let made = MetricsServer(
                exporter: exporter, configuration: MetricsServer.Configuration(address: address, web: parsed.web),
                log: log)
            do {
                try made.start()
            } catch {
                throw ToolError(message: "\(error)", status: 1)
            }
            server = made
        }
        var textfile: TextfileWriter?
        if let path = parsed.textfile {
            let writer = TextfileWriter(exporter: exporter, path: path, interval: parsed.interval, log: log)
            do {
                try writer.write()
            } catch {
                throw ToolError(message: "--textfile: cannot write \(path): \(error)", status: 1)
            }
            do {
                try writer.start()
            } catch {
                throw ToolError(message: "--textfile: \(error)", status: 1)
            }
            textfile = writer
        }
        defer {
            server?.stop()
            textfile?.stop()
        }
        let names = running.map(\.id).joined(separator: ", ")
        var places: [String] = []
        if let server, let port = server.port {
            let address = server.configuration.address
            let host = address.host.contains(":") ? "[\(address.host)]" : address.host
            let scheme = server.configuration.web.tls == nil ? "http" : "https"
            let authentication = server.configuration.web.basicAuthUsers.isEmpty ? "" : " (basic authentication)"
            places.append("\(scheme)://\(host):\(port)/metrics\(authentication)")
        }
        if let textfile { places.append("\(textfile.path) every \(textfile.interval)") }
        printError(
            "vigil: serving \(names.isEmpty ? "no running source" : names) at \(places.joined(separator: " and ")); Ctrl-C to stop"
        )
        return 128 + HandledSignals.wait(for: HandledSignals.stop)
    }

    /// The sources to serve: those named, or every source that needs no argument.
    private static func selection(_ parsed: ServeOptions) throws(ToolError) -> [(SourceCatalog.Entry, String?)] {
        if parsed.sources.isEmpty {
            return SourceCatalog.builtIn.filter { $0.argumentName == nil }.map { ($0, nil) }
        }
        var selected: [(SourceCatalog.Entry, String?)] = []
        var words = parsed.sources[...]
        while let id = words.popFirst() {
            guard let entry = SourceCatalog.entry(id: id) else {
                let known = SourceCatalog.builtIn.map(\.id).joined(separator: ", ")
                throw .usage("unknown source \"\(id)\" (known: \(known)); see vigil list")
            }
            var argument: String?
            if id == "reach" {
                // Every word up to the next source id is a target, as for watch.
                var hosts: [String] = []
                while let word = words.first, SourceCatalog.entry(id: word) == nil { hosts.append(words.removeFirst()) }
                guard !hosts.isEmpty else { throw .usage("reach needs TARGET: vigil serve reach HOST[:PORT]…") }
                argument = hosts.joined(separator: " ")
            } else if let name = entry.argumentName {
                guard let value = words.popFirst() else {
                    throw .usage("\(id) needs \(name): vigil serve \(id) \(name)")
                }
                argument = value
            }
            selected.append((entry, argument))
        }
        return selected
    }

    /// "no such device: …" for an unavailable source (the metric already says it is down).
    private static func reason(_ availability: Availability) -> String {
        guard case .unavailable(let reason, let detail) = availability else { return "" }
        return "\(reason): \(detail)"
    }
}
