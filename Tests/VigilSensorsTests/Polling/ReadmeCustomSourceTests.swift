import Glibc
import Testing
import Vigil
import VigilSensors
import VigilTestSupport

// The README's custom-source example, verbatim from here to the end of `loadAverageSource`. Plain `import
// VigilSensors` (not `@testable`); `package` symbols are still visible inside the package, so keep the example to
// public API by hand, as a user's code must be.

/// The 1-minute load average: runnable tasks, averaged.
struct LoadAverage: Sendable, Equatable, Encodable, CustomStringConvertible {
    var oneMinute: Double
    var description: String { "load \(oneMinute)" }
}

/// A source of the load average in `<root>/loadavg`, read every `updateInterval` on the shared event loop.
func loadAverageSource(root: String = "/proc", updateInterval: Duration = .seconds(5)) -> PolledMonitor<LoadAverage> {
    let path = root + "/loadavg"
    return PolledMonitor(
        name: "Load average", updateInterval: updateInterval, eventLoop: .shared,
        availability: {
            access(path, R_OK) == 0
                ? .available : .unavailable(reason: .kernelLacksInterface, detail: "\(path) is missing")
        },
        read: { () throws(SensorError) -> LoadAverage? in
            // Runs on the event-loop thread. A thrown SensorError is published as `unavailable` with its reason;
            // returning nil publishes nothing.
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw .systemCall(name: "open", target: path, errno: Errno(rawValue: errno)) }
            defer { close(fd) }
            var bytes = [UInt8](repeating: 0, count: 256)
            let count = read(fd, &bytes, bytes.count)
            let text = String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self)
            guard let first = text.split(separator: " ").first, let value = Double(first) else {
                throw .malformedValue(path: path, text: text, expected: "a load average")
            }
            return LoadAverage(oneMinute: value)
        })
}

@Suite(.timeLimit(.minutes(10))) struct ReadmeCustomSourceTests {
    @Test func publishesPendingThenOnlyChanges() async throws {
        let directory = TemporaryDirectory("vigil-readme")
        defer { directory.remove() }
        writeFile(directory.file("loadavg"), "0.50 0.40 0.30 1/100 1234\n")
        // An hour between ticks: refresh() is the tick here, read on this thread, so every step is exact.
        let load = loadAverageSource(root: directory.path, updateInterval: .seconds(3600))
        #expect(load.availability == .available)
        let seen = FutexMutex<[SensorReading<LoadAverage>]>([])
        let subscription = load.readings.subscribe { reading in seen.withLock { $0.append(reading) } }
        defer { subscription.dispose() }
        #expect(seen.withLock { $0 }.map(\.status) == [.pending])
        try load.startMonitoring()
        defer { load.stopMonitoring() }
        #expect(seen.withLock { $0 }.count == 2, "start reads once")
        // The same value at every tick publishes nothing more, even when the rest of the file changed.
        load.refresh()
        replaceFile(directory.file("loadavg"), "0.50 0.40 0.30 2/100 1235\n")
        load.refresh()
        #expect(seen.withLock { $0 }.count == 2)
        replaceFile(directory.file("loadavg"), "0.75 0.45 0.31 1/100 1236\n")
        load.refresh()
        load.refresh()
        let expected: [SensorReading<LoadAverage>.Status] = [
            .pending, .value(LoadAverage(oneMinute: 0.5)), .value(LoadAverage(oneMinute: 0.75)),
        ]
        let readings = seen.withLock { $0 }
        #expect(readings.map(\.status) == expected)
        // The changed value is a new reading, stamped after the one it replaces.
        #expect(zip(readings, readings.dropFirst()).allSatisfy { $0.time < $1.time })
        #expect(load.latest?.status == .value(LoadAverage(oneMinute: 0.75)))
    }

    @Test func aMissingFileIsPublishedInBandAndRecovers() async throws {
        let directory = TemporaryDirectory("vigil-readme")
        defer { directory.remove() }
        let load = loadAverageSource(root: directory.path, updateInterval: .milliseconds(5))
        #expect(load.availability != .available)
        try load.startMonitoring()
        defer { load.stopMonitoring() }
        guard case .unavailable(let reason) = load.latest?.status else {
            Issue.record("expected unavailable, got \(String(describing: load.latest))")
            return
        }
        #expect(reason.contains("loadavg"))
        replaceFile(directory.file("loadavg"), "1.25 0.40 0.30 1/100 1234\n")
        #expect(await eventually { load.latest?.status == .value(LoadAverage(oneMinute: 1.25)) })
    }
}
