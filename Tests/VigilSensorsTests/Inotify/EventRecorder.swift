import Synchronization
import Vigil
import VigilSensors
import VigilTestSupport

/// Collects a monitor's events as they are published (immediate delivery, on the event-loop thread).
final class EventRecorder: Sendable {
    private let events = FutexMutex<[SensorEvent<FileSystemEvent>]>([])
    private let subscription = FutexMutex<Subscription?>(nil)

    init(_ monitor: FileSystemMonitor, onEvent: (@Sendable (FileSystemEvent) -> Void)? = nil) {
        let token = monitor.readings.subscribe { [weak self] event in
            self?.events.withLock { $0.append(event) }
            if let change = event.payload { onEvent?(change) }
        }
        subscription.withLock { $0 = token }
    }

    /// A started monitor for `path` and a recorder of its events.
    static func started(_ path: String, recursive: Bool = false) throws -> (FileSystemMonitor, EventRecorder) {
        let monitor = FileSystemMonitor(path: path, recursive: recursive)
        let recorder = EventRecorder(monitor)
        try monitor.startMonitoring()
        return (monitor, recorder)
    }

    /// The file-system events, without overflows and unavailable notices.
    var all: [FileSystemEvent] { events.withLock { $0 }.compactMap(\.payload) }

    /// Everything published, file-system events and the shared overflow and unavailable cases.
    var published: [SensorEvent<FileSystemEvent>] { events.withLock { $0 } }

    /// Waits (10 s at most) until a published event satisfies `predicate`.
    func waitFor(_ predicate: @escaping @Sendable (SensorEvent<FileSystemEvent>.Kind) -> Bool) async -> Bool {
        await eventually { self.published.contains { predicate($0.kind) } }
    }

    func contains(_ kind: FileSystemEvent.Kind, _ path: BytePath, oldPath: BytePath? = nil) -> Bool {
        all.contains { $0.kind == kind && $0.path == path && (oldPath == nil || $0.oldPath == oldPath) }
    }

    func contains(_ kind: FileSystemEvent.Kind, _ path: String, oldPath: String? = nil) -> Bool {
        contains(kind, BytePath(path), oldPath: oldPath.map { BytePath($0) })
    }

    /// Waits (10 s at most) until an event of `kind` for `path` arrived.
    func waitFor(_ kind: FileSystemEvent.Kind, _ path: BytePath, oldPath: BytePath? = nil) async -> Bool {
        await eventually { self.contains(kind, path, oldPath: oldPath) }
    }

    /// Waits (10 s at most) until an event of `kind` for `path` arrived.
    func waitFor(_ kind: FileSystemEvent.Kind, _ path: String, oldPath: String? = nil) async -> Bool {
        await waitFor(kind, BytePath(path), oldPath: oldPath.map { BytePath($0) })
    }

    func clear() { events.withLock { $0.removeAll() } }
}
