import Vigil

/// Memory pressure from PSI (`<root>/pressure/memory`): stall averages and a level, the Linux memory warning.
///
/// When it starts, the monitor opens the PSI file read-write and writes a kernel trigger (by default
/// `some 150000 1000000`: wake when tasks stall 150 ms within any 1 s window), then watches the file for `POLLPRI`,
/// re-reading it from offset 0 on each wake-up. Without `CAP_SYS_RESOURCE` (in many containers and VMs, even as root)
/// the kernel takes only windows that are whole multiples of 2 s and answers `EINVAL` to others: the monitor then
/// writes the same share of stall over the next such window (`some 300000 2000000` for the default) and reports
/// ``PressureStall/Mode/trigger`` as usual. The kernel may still refuse the trigger (`EINVAL` on kernels or cgroup
/// setups without trigger support), the event loop may refuse the file, or the file may not be procfs at all (a fake
/// tree); then the monitor polls the averages instead and says why in the reading's ``PressureStall/mode``. It polls
/// every ``Source/updateInterval`` in both modes, since nothing notifies when pressure falls again.
///
/// Readings are a `BehaviorSubject` holding the latest ``SensorReading`` of a ``PressureStall`` (percentages of
/// time stalled, microseconds, a level), published on the event-loop thread, never under a lock, only on change.
public final class MemoryPressureMonitor: PollingSource {
    /// A PSI trigger: wake when tasks stall at least `stall` within any `window`.
    public struct Trigger: Sendable, Equatable {
        /// `some` (at least one task stalled) or `full` (all tasks stalled).
        public var kind: String
        /// Stall time in microseconds that fires the trigger.
        public var stallMicroseconds: Int
        /// Window in microseconds (the kernel accepts 500 ms ... 10 s).
        public var windowMicroseconds: Int

        /// Creates a trigger; the default is `some 150000 1000000`.
        public init(kind: String = "some", stallMicroseconds: Int = 150_000, windowMicroseconds: Int = 1_000_000) {
            self.kind = kind
            self.stallMicroseconds = stallMicroseconds
            self.windowMicroseconds = windowMicroseconds
        }

        /// The text written to the PSI file, NUL-terminated as the kernel expects.
        var bytes: [UInt8] { Array("\(kind) \(stallMicroseconds) \(windowMicroseconds)".utf8) + [0] }

        /// The window granularity the kernel requires of a writer without `CAP_SYS_RESOURCE`.
        static let unprivilegedWindowStep = 2_000_000

        /// The same share of stall over the next window an unprivileged writer may use, or nil when this window is
        /// one already.
        var unprivileged: Trigger? {
            let step = Self.unprivilegedWindowStep
            guard windowMicroseconds > 0, !windowMicroseconds.isMultiple(of: step) else { return nil }
            let window = (windowMicroseconds / step + 1) * step
            let stall = Int((Double(stallMicroseconds) * Double(window) / Double(windowMicroseconds)).rounded())
            return Trigger(kind: kind, stallMicroseconds: stall, windowMicroseconds: window)
        }
    }

    /// The PSI file read.
    public let path: String
    /// The trigger to register, or `nil` to poll only.
    public let trigger: Trigger?
    private let eventLoop: EventLoop
    let driver: PollingDriver<PressureStall>
    private let mode = SharedValue<PressureStall.Mode>(.snapshot)
    private let open = SharedValue<OpenAttribute?>(nil)
    let lifecycle = Lifecycle()

    /// Creates a monitor; nothing is read until it starts.
    ///
    /// - Parameters:
    ///   - root: The procfs root, `/proc` unless reading a fake or captured tree.
    ///   - trigger: The PSI trigger to register; `nil` to poll only.
    ///   - updateInterval: How often the averages are re-read (default 5 s); below 1 ms it is raised to 1 ms.
    ///   - thresholds: The avg10 percentages of the warning and critical levels.
    ///   - eventLoop: The loop that watches the trigger and runs the timer.
    public init(
        root: String = "/proc", trigger: Trigger? = Trigger(), updateInterval: Duration = .seconds(5),
        thresholds: PressureStall.Thresholds = .init(), eventLoop: EventLoop = .shared
    ) {
        let path = root + "/pressure/memory"
        self.path = path
        self.trigger = trigger
        self.eventLoop = eventLoop
        let mode = self.mode
        let open = self.open
        driver = PollingDriver(interval: updateInterval, eventLoop: eventLoop) { () throws(SensorError) in
            let text: String
            if let attribute = open.value {
                text = try attribute.readText()
            } else {
                text = try SysfsFile.readText(path)
            }
            return try PressureStall.parse(text, path: path, thresholds: thresholds, mode: mode.value)
        }
    }

    deinit { stopMonitoring() }

    public var name: String { "Memory pressure" }

    public var availability: Availability {
        Availability.procfs(path, what: "pressure stall information (build with CONFIG_PSI, boot with psi=1)")
    }

    /// Arms the trigger (or chooses polling and says why), then starts polling; concurrent calls start once.
    ///
    /// - Throws: ``SensorError`` when the event loop cannot run the polling timer.
    public func startMonitoring() throws(SensorError) {
        try lifecycle.start { (generation) throws(SensorError) in
            mode.value = armTrigger(generation)
            try driver.start()
            lifecycle.keep(generation) { [driver] in driver.stop() }
        }
    }

    /// Writes the trigger and watches the file for `POLLPRI` for `generation`'s run, or says why polling is used
    /// instead. The run owns the open file: its end unregisters and closes it.
    private func armTrigger(_ generation: UInt64) -> PressureStall.Mode {
        guard let trigger else { return .polling(reason: "no trigger requested") }
        guard OpenAttribute.isOnProcfs(path) else {
            return .polling(reason: "\(path) is not on procfs, so no trigger can be written")
        }
        let attribute: OpenAttribute
        do {
            attribute = try OpenAttribute(path: path, writable: true)
        } catch {
            return .polling(reason: "the kernel refused the trigger: \(error)")
        }
        do {
            try Self.write(trigger, to: attribute)
        } catch {
            attribute.close()
            return .polling(reason: "the kernel refused the trigger: \(error)")
        }
        do {
            try lifecycle.watchPriority(attribute, holder: open, on: eventLoop, generation: generation) {
                [weak self] in self?.driver.refresh()
            }
            return .trigger
        } catch {
            return .polling(reason: "the trigger cannot be watched: \(error)")
        }
    }

    /// Writes `trigger`, or, when the kernel refuses its window with `EINVAL`, the unprivileged form of it.
    ///
    /// - Throws: The error of the last write tried.
    private static func write(_ trigger: Trigger, to attribute: OpenAttribute) throws(SensorError) {
        do {
            try attribute.write(trigger.bytes)
        } catch {
            guard case .systemCall(_, _, let errno) = error, errno == .invalidArgument,
                let unprivileged = trigger.unprivileged
            else { throw error }
            try attribute.write(unprivileged.bytes)
        }
    }
}
