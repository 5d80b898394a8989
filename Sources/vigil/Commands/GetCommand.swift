import VigilSensors

/// `vigil get SOURCE…`: the current reading of each source, then exit (like `sensors` or `upower -d`).
enum GetCommand {
    /// Sources that report events rather than a current state.
    static let eventSources: Set<String> = ["files", "devices", "clock"]

    static func run(_ arguments: Arguments) throws(ToolError) -> Int32 {
        guard !arguments.positional.isEmpty else { throw .usage("get needs at least one SOURCE; see vigil list") }
        for id in arguments.positional where eventSources.contains(id) {
            throw .usage("\(id) reports events and has no current reading: use vigil watch \(id)")
        }
        let options = try arguments.sourceOptions()
        let targets = try WatchSelection.targets(arguments, options: options)
        for target in targets {
            guard let availability = target.availability?() else { continue }
            if case .unavailable = availability { throw .runtime("\(target.key): \(availability)") }
        }
        let timeout = try arguments.duration("--timeout") ?? .seconds(10)
        let settings = Emitter.Settings(
            json: arguments.json, timestamps: arguments.flag("--timestamps"), once: Set(targets.map(\.key)))
        let session = WatchSession(targets: targets, settings: settings, timeout: timeout)
        let (status, emitter) = try session.run()
        guard status == 0 else { return status }
        var failed = false
        for (key, reason) in emitter.unavailable.sorted(by: { $0.key < $1.key }) {
            printError("vigil: error: \(key): unavailable: \(reason)")
            failed = true
        }
        for key in emitter.silent(among: targets.map(\.key)) {
            printError("vigil: error: \(key): no reading within \(timeout)")
            failed = true
        }
        return failed ? 1 : 0
    }
}
