import VigilSensors

/// `vigil get SOURCE…`: the current reading of each source, then exit (like `sensors` or `upower -d`); a source that
/// cannot be read is an error line, and the others are still printed (as `df` does for paths).
enum GetCommand {
    /// Sources that report events rather than a current state.
    static let eventSources: Set<String> = ["files", "devices", "clock"]

    static func run(_ arguments: Arguments) throws(ToolError) -> Int32 {
        guard !arguments.positional.isEmpty else { throw .usage("get needs at least one SOURCE; see vigil list") }
        for id in arguments.positional where eventSources.contains(id) {
            throw .usage("\(id) reports events and has no current reading: use vigil watch \(id)")
        }
        let options = try arguments.sourceOptions()
        let timeout = try arguments.duration("--timeout") ?? .seconds(10)
        // Like df: what can be read is printed, what cannot is an error line each, and then the status is 1.
        var failed = false
        var targets: [WatchTarget] = []
        for target in try WatchSelection.targets(arguments, options: options, storagePerPath: true) {
            if let availability = target.availability?(), case .unavailable = availability {
                printError("vigil: error: \(target.key): \(availability)")
                failed = true
            } else {
                targets.append(target)
            }
        }
        guard !targets.isEmpty else { return 1 }
        let settings = Emitter.Settings(
            json: arguments.json, timestamps: arguments.flag("--timestamps"), once: targets.map(\.key))
        let session = WatchSession(targets: targets, settings: settings, timeout: timeout)
        let (status, emitter) = try session.run()
        guard status == 0 else { return status }
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
