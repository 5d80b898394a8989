import Glibc
import Vigil
import VigilSensors

/// The targets `watch` and `get` run, from the positional words and the source options.
enum WatchSelection {
    /// Every named source (or every available one when none is named), once each, with the options applied.
    ///
    /// `storagePerPath` makes each path of `storage PATH…` a target of its own (for `get`, where one unreadable path
    /// must not hide the others); otherwise they are one target.
    ///
    /// - Throws: ``ToolError`` (usage) for an unknown source, a missing argument or a bad option value.
    static func targets(
        _ arguments: Arguments, options: SourceCatalog.Options, storagePerPath: Bool = false
    ) throws(ToolError) -> [WatchTarget] {
        var targets: [WatchTarget] = []
        if arguments.positional.isEmpty {
            for entry in SourceCatalog.builtIn
            where entry.argumentName == nil && entry.availability(options).isAvailable {
                targets.append(try target(entry, arguments: arguments, options: options))
            }
            guard !targets.isEmpty else { throw .runtime("no source is available here") }
            return targets
        }
        var words = arguments.positional[...]
        while let id = words.popFirst() {
            guard let entry = SourceCatalog.entry(id: id) else {
                let known = SourceCatalog.builtIn.map(\.id).joined(separator: ", ")
                throw .usage("unknown source \"\(id)\" (known: \(known)); see vigil list")
            }
            switch id {
            case "files":
                guard !words.isEmpty else { throw .usage("files needs PATH: vigil watch files PATH…") }
                for path in words { targets.append(try files(path, arguments: arguments, options: options)) }
                words = []
            case "reach":
                // Every word up to the next source id is a target: `reach example.org:443 10.0.0.1 cpu`.
                var hosts: [String] = []
                while let word = words.first, SourceCatalog.entry(id: word) == nil {
                    hosts.append(word)
                    words.removeFirst()
                }
                guard !hosts.isEmpty else { throw .usage("reach needs TARGET: vigil watch reach HOST[:PORT]…") }
                let argument = hosts.joined(separator: " ")
                let source = try make(entry, options: options, argument: argument)
                targets.append(WatchTarget(catalog: source, key: "reach " + argument))
            case "storage":
                var paths: [String] = []
                while let path = words.first, path.contains("/") {
                    paths.append(path)
                    words.removeFirst()
                }
                if paths.isEmpty {
                    targets.append(try target(entry, arguments: arguments, options: options))
                } else if storagePerPath {
                    for path in paths {
                        let monitor = StorageMonitor(
                            mountPoints: [CommandLinePath.bytes(of: path)], eventLoop: options.eventLoop)
                        targets.append(WatchTarget(id: id, key: "storage " + path, source: monitor))
                    }
                } else {
                    let monitor = StorageMonitor(
                        mountPoints: paths.map(CommandLinePath.bytes(of:)), eventLoop: options.eventLoop)
                    targets.append(WatchTarget(id: id, key: "storage " + paths.joined(separator: " "), source: monitor))
                }
            default:
                if let name = entry.argumentName {
                    guard let argument = words.popFirst() else {
                        throw .usage("\(id) needs \(name): vigil watch \(id) \(name)")
                    }
                    let source = try make(entry, options: options, argument: argument)
                    targets.append(WatchTarget(catalog: source, key: id + " " + argument))
                } else {
                    targets.append(try target(entry, arguments: arguments, options: options))
                }
            }
        }
        var seen: Set<String> = []
        return targets.filter { seen.insert($0.key).inserted }
    }

    private static func make(_ entry: SourceCatalog.Entry, options: SourceCatalog.Options, argument: String? = nil)
        throws(ToolError) -> CatalogSource
    {
        do {
            return try entry.make(options, argument: argument.map(CommandLinePath.bytes(of:)))
        } catch {
            throw .runtime("\(entry.id): \(error)")
        }
    }

    /// A source that takes no argument, with `--changes` (network; else its rates) or `--subsystem` (devices)
    /// applied.
    private static func target(_ entry: SourceCatalog.Entry, arguments: Arguments, options: SourceCatalog.Options)
        throws(ToolError) -> WatchTarget
    {
        let source = try make(entry, options: options)
        switch entry.id {
        case "network" where arguments.flag("--changes"):
            let differ = NetworkDiffer()
            let readings = source.readings.map { reading -> any CatalogReading in
                guard let path = (reading as? SensorReading<NetworkPath>)?.value else { return reading }
                return differ.changes(to: path)
            }
            return WatchTarget(catalog: source, key: entry.id, readings: readings)
        case "network":
            let rates = NetworkRates()
            return WatchTarget(catalog: source, key: entry.id, readings: source.readings.map(rates.measure))
        case "devices":
            guard let subsystem = arguments.value("--subsystem") else { break }
            let readings = source.readings.filter { reading in
                guard let event = reading as? DeviceEvent, let uevent = event.uevent else { return true }
                return uevent.subsystem.string == subsystem
            }
            return WatchTarget(catalog: source, key: entry.id, readings: readings)
        default: break
        }
        return WatchTarget(catalog: source, key: entry.id)
    }

    /// `files PATH` with `--recursive`, `--events` and `--exclude` applied.
    private static func files(_ path: String, arguments: Arguments, options: SourceCatalog.Options)
        throws(ToolError) -> WatchTarget
    {
        var kinds: Set<FileSystemEvent.Kind>?
        for list in arguments.values("--events") {
            for name in list.split(separator: ",") {
                guard let kind = FileSystemEvent.Kind(rawValue: String(name)) else {
                    let known = FileSystemEvent.Kind.allCases.map(\.rawValue).joined(separator: ", ")
                    throw .usage("--events: unknown event \"\(name)\" (known: \(known))")
                }
                kinds = (kinds ?? []).union([kind])
            }
        }
        let patterns = arguments.values("--exclude")
        let monitor = FileSystemMonitor(
            path: CommandLinePath.bytes(of: path), recursive: arguments.flag("--recursive"),
            eventLoop: options.eventLoop)
        let target = WatchTarget(id: "files", key: "files " + path, source: monitor, checksAvailability: false)
        guard kinds != nil || !patterns.isEmpty else { return target }
        let readings = target.readings.filter { [kinds] reading in
            // Lost events and directories that cannot be watched are always shown: no filter hides them.
            guard let event = (reading as? SensorEvent<FileSystemEvent>)?.payload else { return true }
            if let kinds, !kinds.contains(event.kind) { return false }
            return !patterns.contains { pattern in
                excludes(pattern, event.path) || event.oldPath.map { excludes(pattern, $0) } ?? false
            }
        }
        return WatchTarget(target, readings: readings)
    }

    /// Whether `pattern` (fnmatch(3)) matches the path's exact bytes, whole or its last component.
    private static func excludes(_ pattern: String, _ path: BytePath) -> Bool {
        let bytes = path.bytes
        let name = bytes.split(separator: UInt8(ascii: "/")).last.map(Array.init) ?? bytes
        return [bytes, name].contains { candidate in
            (candidate + [0]).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { fnmatch(pattern, $0.baseAddress, 0) == 0 }
            }
        }
    }
}
