import Glibc
import Vigil

/// Watches `resolv.conf` for the changes that can change what names resolve to: the directory that holds it (so an
/// atomic replace, a new symbolic link or a deletion is seen, not only a write) and, when it is a symbolic link, the
/// directory of each file along its chain of links (as `systemd-resolved` and NetworkManager replace the last one,
/// and `resolvconf` links through `/run/resolvconf`).
///
/// The watch follows a retargeted link: every change seen watches the chain's new directories and names.
final class ResolvConfWatch: Sendable {
    private struct Watch {
        var monitors: [FileSystemMonitor] = []
        var subscriptions: [Subscription] = []
        /// The names the monitors watch, by directory.
        var names: [String: Set<String>] = [:]
        var stopped = false
    }

    /// The most links followed from `resolv.conf`; the kernel gives up after 40, and a loop ends the chain too.
    static let linkLimit = 8

    private let file: String
    private let eventLoop: EventLoop
    private let onChange: @Sendable () -> Void
    private let watch = FutexMutex(Watch())

    /// - Parameters:
    ///   - etcRoot: The directory that holds `resolv.conf`.
    ///   - eventLoop: The loop that reads inotify.
    ///   - onChange: Called on the loop thread after a change, never under a lock.
    init(etcRoot: String, eventLoop: EventLoop, onChange: @escaping @Sendable () -> Void) {
        file = etcRoot + "/resolv.conf"
        self.eventLoop = eventLoop
        self.onChange = onChange
    }

    /// The file names that matter, by the directory that holds them: `resolv.conf` and every link or file its chain
    /// of links passes through, up to ``linkLimit`` links.
    var watchedNames: [String: Set<String>] {
        var names: [String: Set<String>] = [:]
        var path = file
        for _ in 0...Self.linkLimit {
            let (directory, name) = Self.split(path)
            guard names[directory, default: []].insert(name).inserted, let target = Self.linkTarget(path) else { break }
            path = target.hasPrefix("/") ? target : directory + "/" + target
        }
        return names
    }

    /// What the symbolic link at `path` points to, or nil when it is no link.
    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Starts watching; a directory that cannot be watched is left out (no `resolv.conf` to follow there).
    func start() {
        let names = watchedNames
        var monitors: [FileSystemMonitor] = []
        var subscriptions: [Subscription] = []
        for (directory, files) in names {
            let monitor = FileSystemMonitor(path: BytePath(directory), recursive: false, eventLoop: eventLoop)
            let subscription = monitor.readings.subscribe { [weak self] event in
                guard let self else { return }
                if let change = event.payload {
                    let name = change.path.parentAndName.name.lossyString
                    let old = change.oldPath?.parentAndName.name.lossyString
                    guard files.contains(name) || old.map(files.contains) == true else { return }
                }
                self.changed()
            }
            do throws(SensorError) {
                try monitor.startMonitoring()
                monitors.append(monitor)
                subscriptions.append(subscription)
            } catch {
                subscription.dispose()
            }
        }
        let replaced = watch.withLock { state -> Watch? in
            guard !state.stopped else { return nil }
            defer {
                state.monitors = monitors
                state.subscriptions = subscriptions
                state.names = names
            }
            return state
        }
        guard let replaced else {
            for subscription in subscriptions { subscription.dispose() }
            for monitor in monitors { monitor.stopMonitoring() }
            return
        }
        for subscription in replaced.subscriptions { subscription.dispose() }
        for monitor in replaced.monitors { monitor.stopMonitoring() }
    }

    /// Stops watching for good.
    func stop() {
        let old = watch.withLock { state in
            defer {
                state.stopped = true
                state.monitors = []
                state.subscriptions = []
            }
            return state
        }
        for subscription in old.subscriptions { subscription.dispose() }
        for monitor in old.monitors { monitor.stopMonitoring() }
    }

    /// Follows a retargeted link, then says so.
    private func changed() {
        if watchedNames != watch.withLock({ $0.names }) { start() }
        onChange()
    }

    private static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }
}
