import VigilSensors

/// `vigil watch`: starts the named sources (or every available one) and prints readings until the run ends.
enum WatchCommand {
    static func run(_ arguments: Arguments) throws(ToolError) -> Int32 {
        HandledSignals.block(HandledSignals.stop)
        let options = try arguments.sourceOptions()
        let targets = try WatchSelection.targets(arguments, options: options)
        if !arguments.positional.isEmpty && !arguments.flag("--wait") {
            for target in targets {
                guard let availability = target.availability?() else { continue }
                if case .unavailable = availability { throw .runtime("\(target.key): \(availability)") }
            }
        }
        var settings = Emitter.Settings(json: arguments.json, timestamps: arguments.flag("--timestamps"))
        settings.count = try arguments.count("--count")
        if arguments.flag("--once") { settings.once = try onceKeys(targets, named: !arguments.positional.isEmpty) }
        if arguments.flag("--every") { try publishEveryRead(targets, named: !arguments.positional.isEmpty) }
        let session = WatchSession(
            targets: targets, settings: settings, interval: try arguments.duration("--interval"),
            timeout: try arguments.duration("--timeout"),
            banner: "vigil: watching \(targets.map(\.key).joined(separator: ", ")); Ctrl-C to stop")
        return try session.run().status
    }

    /// `--every`: each polled source publishes every poll, so a line comes out per poll, changed or not. A source
    /// that does not poll (an event source, the network) goes on printing its changes; naming only such sources is a
    /// usage error.
    static func publishEveryRead(_ targets: [WatchTarget], named: Bool) throws(ToolError) {
        var polled = 0
        for target in targets {
            do {
                try target.source.setPublishesEveryRead(true)
                polled += 1
            } catch {
                continue
            }
        }
        if named, polled == 0 {
            throw .usage("--every: \(targets.map(\.key).joined(separator: ", ")) do not poll; they print every change")
        }
    }

    /// The keys `--once` waits for: every state source's. An event source (files, devices, clock) has no first
    /// reading, only events that may never come, so naming one with `--once` is a usage error, and a bare
    /// `watch --once` leaves them out.
    static func onceKeys(_ targets: [WatchTarget], named: Bool) throws(ToolError) -> [String] {
        let events = targets.filter { GetCommand.eventSources.contains($0.id) }
        if named, let event = events.first {
            throw .usage(
                "\(event.key) reports events and has no first reading for --once to wait for; "
                    + "use --count N to stop after N lines")
        }
        let states = targets.filter { !GetCommand.eventSources.contains($0.id) }.map(\.key)
        guard !states.isEmpty else { throw .usage("--once needs a source with a state; see vigil list") }
        return states
    }
}
