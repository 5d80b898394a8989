import Glibc
import Vigil
import VigilSensors

/// A polled source of the integer in one file, kept to the ``Source`` contract except for one chosen defect: what
/// the conformance checker must catch, each defect under the clause it breaks.
final class FaultySource: Source {
    /// The one defect the source has.
    enum Fault: String, CaseIterable, Sendable {
        /// None: the checker must find nothing.
        case none
        /// Starts after checking `isMonitoring` instead of claiming the start under its lock: concurrent starts each
        /// schedule a timer, and all but one stay registered for ever.
        case checksBeforeClaiming
        /// Its `deinit` does not stop: a released running source leaves its timer on the loop.
        case deinitDoesNotStop
        /// `refresh()` reads and publishes even when stopped.
        case refreshesWhenStopped
        /// A failed read keeps the last value instead of publishing `unavailable`.
        case hidesFailedReads
        /// Takes any update interval, zero included.
        case acceptsAnyInterval
        /// Its start sleeps 150 ms, beyond the 100 ms a start may take.
        case slowStart
        /// Runs its timer on the shared loop, not the one it was made with.
        case ignoresItsLoop
    }

    let name = "Faulty"
    let readings = BehaviorSubject<SensorReading<Int>>(.pending)
    private let fault: Fault
    private let path: String
    private let loop: EventLoop

    private struct State {
        var timer: EventLoop.Registration?
        var interval = Duration.milliseconds(100)
    }

    private let state = FutexMutex(State())

    init(_ fault: Fault, path: String, eventLoop: EventLoop) {
        self.fault = fault
        self.path = path
        self.loop = fault == .ignoresItsLoop ? .shared : eventLoop
    }

    deinit {
        if fault != .deinitDoesNotStop { stopMonitoring() }
    }

    var availability: Availability {
        access(path, R_OK) == 0 ? .available : .unavailable(reason: .missingDevice, detail: "no \(path)")
    }

    var isMonitoring: Bool { state.withLock { $0.timer != nil } }

    func startMonitoring() throws(SensorError) {
        if fault == .checksBeforeClaiming {
            guard !isMonitoring else { return }
            usleep(2_000)  // the other starts arrive while this one has not claimed yet
            let timer = try schedule()
            state.withLock { $0.timer = timer }
        } else {
            let timer = try schedule()
            let kept = state.withLock { state in
                guard state.timer == nil else { return false }
                state.timer = timer
                return true
            }
            if !kept { timer.cancel() }
        }
        if fault == .slowStart { usleep(150_000) }
        read()
    }

    func stopMonitoring() {
        let timer = state.withLock { state in
            defer { state.timer = nil }
            return state.timer
        }
        timer?.cancel()
    }

    func refresh() {
        if fault == .refreshesWhenStopped || isMonitoring { read() }
    }

    var updateInterval: Duration? { state.withLock { $0.interval } }

    func setUpdateInterval(_ interval: Duration) throws(SensorError) {
        if fault != .acceptsAnyInterval && interval < .milliseconds(1) {
            throw .invalidArgument(name: "updateInterval", value: "\(interval)", reason: "below 1 ms")
        }
        let old = state.withLock { state in
            state.interval = interval
            return state.timer
        }
        guard let old else { return }
        old.cancel()
        let timer = try schedule()
        let kept = state.withLock { state in
            guard state.timer === old else { return false }
            state.timer = timer
            return true
        }
        if !kept { timer.cancel() }
    }

    private func schedule() throws(SensorError) -> EventLoop.Registration {
        let interval = state.withLock { $0.interval }
        return try loop.schedule(every: Swift.max(interval, .milliseconds(1))) { [weak self] in self?.read() }
    }

    /// Reads the file and publishes a change: the number, or why there is none.
    private func read() {
        let next: SensorReading<Int>.Status
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if fault == .hidesFailedReads { return }
            next = .unavailable(reason: "\(path) cannot be opened")
        } else {
            var bytes = [UInt8](repeating: 0, count: 32)
            let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
            let text = String(decoding: bytes.prefix(Swift.max(count, 0)), as: UTF8.self)
            next = Int(text.filter(\.isNumber)).map { .value($0) } ?? .unavailable(reason: "\(path): not a number")
        }
        if readings.value.status != next { readings.publish(SensorReading(next, time: .now())) }
    }
}
