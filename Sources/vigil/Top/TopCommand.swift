import Dispatch
import Glibc
import Synchronization
import Vigil
import VigilSensors

/// `vigil top`: the live dashboard, until `q`, Ctrl-C or a signal.
enum TopCommand {
    /// Starts every available source and the files of `PATH` (the current directory by default), draws the
    /// dashboard, and returns the exit status once the user or a signal ends it.
    ///
    /// - Returns: 0 after `q`, 130 after Ctrl-C or SIGINT, 143 after SIGTERM, 129 after SIGHUP.
    /// - Throws: ``ToolError`` for a usage mistake or a standard output that is not a terminal (status 2), and for a
    ///   watched folder that cannot be watched (status 1).
    static func run(_ arguments: Arguments) throws(ToolError) -> Int32 {
        HandledSignals.block(handledSignals.map(\.number) + [SIGWINCH])
        guard arguments.positional.count <= 1 else {
            throw .usage("top takes at most one PATH, got \(arguments.positional.joined(separator: " "))")
        }
        guard isatty(STDOUT_FILENO) == 1 else {
            throw .usage("top draws on a terminal and standard output is not one; use vigil watch for pipes")
        }
        let path = arguments.positional.first ?? "."
        let options = try arguments.sourceOptions()
        let entries = rowEntries(options)
        // --reach TARGET (repeated, or several in one word): a row of the reach source's answers.
        let reachTargets = arguments.values("--reach").flatMap { $0.split(whereSeparator: \.isWhitespace) }
        var reach: CatalogSource?
        if !reachTargets.isEmpty {
            do {
                reach = try SourceCatalog.entry(id: "reach")!.make(
                    options, argument: BytePath(reachTargets.joined(separator: " ")))
            } catch {
                throw .usage("--reach: \(error)")
            }
        }
        let ending = TopEnding()
        let signals = ending.listen(to: handledSignals)
        defer { for source in signals { source.cancel() } }
        guard let terminal = TerminalSession.enter(descriptor: STDOUT_FILENO) else {
            throw .usage("top draws on a terminal and standard output is not one; use vigil watch for pipes")
        }
        let dashboard = TopDashboard(
            terminal: terminal, rowSources: entries.map(\.id) + (reach == nil ? [] : ["reach"]),
            filesTitle: BytePath(path).description)
        var running: [DashboardSource] = []
        defer {
            for source in running { source.stop() }
            dashboard.end()
            // Let a frame already being written finish, but never wait long: a terminal that stopped reading must
            // not keep the dashboard from ending.
            let drained = DispatchSemaphore(value: 0)
            dashboard.queue.async { drained.signal() }
            _ = drained.wait(timeout: .now() + .seconds(1))
            terminal.leave()
        }
        do {
            let files = try SourceCatalog.entry(id: "files")!.make(
                options, argument: CommandLinePath.bytes(of: path))
            running.append(try DashboardSource(files, dashboard: dashboard))
        } catch {
            throw ToolError(message: "files: \(error)", status: 1)
        }
        if let reach {
            do {
                running.append(try DashboardSource(reach, dashboard: dashboard))
            } catch {
                dashboard.queue.async { dashboard.record("cannot start: \(error)", from: "reach") }
            }
        }
        for entry in entries + ["network", "devices"].compactMap(SourceCatalog.entry(id:)) {
            guard let source = try? entry.make(options) else { continue }
            do {
                running.append(try DashboardSource(source, dashboard: dashboard))
            } catch {
                dashboard.queue.async { dashboard.record("cannot start: \(error)", from: entry.id) }
            }
        }
        let others = [
            HandledSignals.source(SIGWINCH, on: dashboard.queue) { dashboard.resized() },
            ending.readKeys(on: dashboard.queue),
            ending.repeating(every: .seconds(1), on: dashboard.queue) { dashboard.sample() },
        ]
        defer { for source in others { source.cancel() } }
        dashboard.queue.async { dashboard.draw() }
        return ending.wait()
    }

    /// The signals that end the dashboard, with the exit status each gives.
    static let handledSignals: [(number: Int32, status: Int32)] = [(SIGINT, 130), (SIGTERM, 143), (SIGHUP, 129)]

    /// The sources shown as rows: every available one that takes no argument, except those with a pane of their own
    /// and `battery`, whose batteries the `power` rows already plot.
    static func rowEntries(_ options: SourceCatalog.Options) -> [SourceCatalog.Entry] {
        SourceCatalog.builtIn.filter { entry in
            entry.argumentName == nil && entry.id != "battery" && !TopState.paneSources.contains(entry.id)
                && entry.availability(options).isAvailable
        }
    }
}
