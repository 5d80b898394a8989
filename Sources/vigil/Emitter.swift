import Dispatch
import Synchronization
import Vigil
import VigilSensors

/// Turns readings into lines (readable, or one JSON envelope a line with `--json`) and queues them on the
/// ``OutputWriter``; counts them for `--count` and `--once`.
///
/// Pending readings ("nothing read yet") are not printed: a source's first line is its first real reading. With
/// `--once` (and for `get`) the lines come out in the order the targets were named, as `df` prints its paths,
/// whichever source answers first: a line waits until those named before it have printed theirs, or the run ended.
final class Emitter: Sendable {
    /// What the emitter prints and when it says the run is done.
    struct Settings {
        var json = false
        var timestamps = false
        /// End after this many lines (`--count`).
        var count: Int?
        /// End once every one of these keys has printed a line (`--once`, `get`), printing them in this order.
        var once: [String]?
    }

    private struct Progress {
        var printed = 0
        var seen: Set<String> = []
        var done = false
        /// Lines of `once` keys waiting for a key named before them, by key.
        var held: [String: String] = [:]
        /// How many keys of `once`, in order, have had their line released.
        var released = 0
        /// The reasons of unavailable readings, by key, for `get`.
        var unavailable: [String: String] = [:]
    }

    /// The queue readings are delivered on, so that lines keep the order they were published in.
    let queue = DispatchQueue(label: "vigil.output")

    /// The most readings of one source waiting for ``queue``, as many as the writer's backlog holds lines.
    static let pendingLimit = OutputWriter.maximumLines
    private let settings: Settings
    private let writer: OutputWriter
    private let control: RunControl
    private let progress = FutexMutex(Progress())

    init(_ settings: Settings, writer: OutputWriter, control: RunControl) {
        self.settings = settings
        self.writer = writer
        self.control = control
    }

    /// Prints one reading of the source `source`; `key` names the watched target (`files /tmp`). Call on ``queue``.
    func emit(key: String, source: String, reading: any CatalogReading) {
        if let batch = reading as? any ReadingBatch {
            for part in batch.parts { emit(key: key, source: source, reading: part) }
            return
        }
        let head = EnvelopeHead.of(reading)
        guard head.status != "pending" else { return }
        let line =
            settings.json
            ? JSONEnvelope.line(source: source, reading: reading, head: head)
            : HumanLine.line(
                source: source, description: reading.description, time: head.time.description,
                timestamps: settings.timestamps)
        let (lines, finished) = progress.withLock { progress -> ([String], Bool) in
            guard !progress.done else { return ([], false) }
            if let once = settings.once, !once.contains(key) || progress.seen.contains(key) { return ([], false) }
            progress.printed += 1
            progress.seen.insert(key)
            if head.status == "unavailable" { progress.unavailable[key] = head.reason ?? "unavailable" }
            let finished =
                (settings.count.map { progress.printed >= $0 } ?? false)
                || (settings.once.map { progress.seen.isSuperset(of: $0) } ?? false)
            progress.done = finished
            guard let once = settings.once else { return ([line], finished) }
            progress.held[key] = line
            return (Self.release(&progress, order: once, all: finished), finished)
        }
        for line in lines { writer.enqueue(line) }
        if finished { control.finish(0) }
    }

    /// Ends the run's printing: the lines still held for an earlier key that never printed (`--timeout`, a signal)
    /// are queued in their order, and later readings are ignored. Call once the sources are stopped.
    func finish() {
        let lines = progress.withLock { progress -> [String] in
            progress.done = true
            return Self.release(&progress, order: settings.once ?? [], all: true)
        }
        for line in lines { writer.enqueue(line) }
    }

    /// Takes the held lines that may be printed now, in `order`: those whose earlier keys all printed, or every one.
    private static func release(_ progress: inout Progress, order: [String], all: Bool) -> [String] {
        var lines: [String] = []
        while progress.released < order.count {
            let key = order[progress.released]
            if let line = progress.held.removeValue(forKey: key) {
                lines.append(line)
            } else if !all {
                break
            }
            progress.released += 1
        }
        return lines
    }

    /// Counts readings dropped before they reached ``queue``, to be reported with the lines the writer drops.
    func countDropped(_ count: Int) { writer.countDropped(count) }

    /// The keys whose printed reading was unavailable, with the reason.
    var unavailable: [String: String] { progress.withLock { $0.unavailable } }

    /// The keys that printed nothing yet.
    func silent(among keys: [String]) -> [String] {
        let seen = progress.withLock { $0.seen }
        return keys.filter { !seen.contains($0) }
    }
}

/// A reading that stands for several lines (the changes between two network snapshots).
protocol ReadingBatch {
    var parts: [any CatalogReading] { get }
}
