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
        if arguments.flag("--once") { settings.once = Set(targets.map(\.key)) }
        let session = WatchSession(
            targets: targets, settings: settings, interval: try arguments.duration("--interval"),
            timeout: try arguments.duration("--timeout"),
            banner: "vigil: watching \(targets.map(\.key).joined(separator: ", ")); Ctrl-C to stop")
        return try session.run().status
    }
}
