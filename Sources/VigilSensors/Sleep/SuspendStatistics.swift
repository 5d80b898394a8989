/// The kernel's suspend statistics since boot, from `<sys>/power/suspend_stats` (Linux 5.4 and later, with
/// `CONFIG_PM_SLEEP`): how often entering a sleep state succeeded and failed, failures by step, and the last failure.
///
/// Each attribute is read on its own, so one that is missing or unreadable hides only itself: its field is nil and
/// ``problems`` says why (a missing one, as on kernels older than the attribute, is just nil). The hardware-sleep
/// times exist only where the platform reports them (ACPI low-power S0 idle machines, Linux 6.4 and later).
public struct SuspendStatistics: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// A step of the suspend and resume path, as the kernel names it in `last_failed_step` and the `failed_*` files.
    public struct Step: RawRepresentable, Sendable, Hashable, Encodable, CustomStringConvertible {
        /// The kernel's name, for example `suspend_noirq`.
        public let rawValue: String

        /// A step by the kernel's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Freezing tasks.
        public static let freeze = Step(rawValue: "freeze")
        /// Preparing devices (`prepare` callbacks).
        public static let prepare = Step(rawValue: "prepare")
        /// Suspending devices.
        public static let suspend = Step(rawValue: "suspend")
        /// The late suspend of devices.
        public static let suspendLate = Step(rawValue: "suspend_late")
        /// Suspending devices with interrupts off.
        public static let suspendNoIRQ = Step(rawValue: "suspend_noirq")
        /// Resuming devices with interrupts off.
        public static let resumeNoIRQ = Step(rawValue: "resume_noirq")
        /// The early resume of devices.
        public static let resumeEarly = Step(rawValue: "resume_early")
        /// Resuming devices.
        public static let resume = Step(rawValue: "resume")

        /// The steps the kernel counts failures of (`failed_<step>`), in the order of the suspend path.
        public static let counted: [Step] = [
            .freeze, .prepare, .suspend, .suspendLate, .suspendNoIRQ, .resumeNoIRQ, .resumeEarly, .resume,
        ]

        public var description: String { rawValue }

        /// Encodes the kernel's name as one string.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }

    /// How often one step failed.
    public struct StepFailures: Sendable, Equatable, Encodable {
        /// The step.
        public var step: Step
        /// How often it failed since boot.
        public var count: Int

        /// `step` failed `count` times.
        public init(step: Step, count: Int) {
            self.step = step
            self.count = count
        }
    }

    /// The last failure the kernel recorded: each part nil when the kernel shows none (an empty name, errno 0).
    public struct Failure: Sendable, Hashable, Encodable, CustomStringConvertible {
        /// The device whose callback failed (`last_failed_dev`), for example `alarm`.
        public var device: String?
        /// The error (`last_failed_errno`, which the kernel shows negated, for example `-16` for `EBUSY`).
        public var errno: Errno?
        /// The step that failed (`last_failed_step`).
        public var step: Step?

        /// A failure; nil parts are unknown.
        public init(device: String? = nil, errno: Errno? = nil, step: Step? = nil) {
            self.device = device
            self.errno = errno
            self.step = step
        }

        public var description: String {
            var parts: [String] = []
            if let step { parts.append("at \(step)") }
            if let device { parts.append("device \(device)") }
            if let errno { parts.append(errno.name ?? "errno \(errno.rawValue)") }
            return parts.isEmpty ? "unknown" : parts.joined(separator: ", ")
        }

        private enum CodingKeys: String, CodingKey { case device, errno, errnoName, step }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(device, forKey: .device)
            try container.encodeIfPresent(errno?.rawValue, forKey: .errno)
            try container.encodeIfPresent(errno?.name, forKey: .errnoName)
            try container.encodeIfPresent(step, forKey: .step)
        }
    }

    /// Times entering a sleep state succeeded (`success`).
    public var successes: Int?
    /// Times it failed (`fail`).
    public var failures: Int?
    /// Failures by step (`failed_freeze` … `failed_resume`), those the kernel shows, in the order of the path.
    public var failedSteps: [StepFailures]
    /// The last failure, or nil when the kernel recorded none (or shows nothing of it).
    public var lastFailure: Failure?
    /// Time in a hardware sleep state in the last cycle (`last_hw_sleep`).
    public var lastHardwareSleep: Duration?
    /// Time in a hardware sleep state since boot (`total_hw_sleep`).
    public var totalHardwareSleep: Duration?
    /// The longest hardware sleep the platform can count (`max_hw_sleep`).
    public var maximumHardwareSleep: Duration?
    /// Attributes that are there but could not be read or parsed, each with why; their fields are nil.
    public var problems: [String]

    /// Statistics with the given fields; what is not given is absent.
    public init(
        successes: Int? = nil, failures: Int? = nil, failedSteps: [StepFailures] = [], lastFailure: Failure? = nil,
        lastHardwareSleep: Duration? = nil, totalHardwareSleep: Duration? = nil,
        maximumHardwareSleep: Duration? = nil, problems: [String] = []
    ) {
        self.successes = successes
        self.failures = failures
        self.failedSteps = failedSteps
        self.lastFailure = lastFailure
        self.lastHardwareSleep = lastHardwareSleep
        self.totalHardwareSleep = totalHardwareSleep
        self.maximumHardwareSleep = maximumHardwareSleep
        self.problems = problems
    }

    /// For example `suspends: 12 succeeded, 1 failed (last at freeze, device alarm, EBUSY)`.
    public var description: String {
        var text =
            "suspends: \(successes.map(String.init) ?? "?") succeeded, \(failures.map(String.init) ?? "?") failed"
        if let lastFailure { text += " (last \(lastFailure))" }
        if let totalHardwareSleep { text += ", \(totalHardwareSleep.sleepDescription) in hardware sleep" }
        return text
    }

    private enum CodingKeys: String, CodingKey {
        case successes, failures, failedSteps, lastFailure, lastHardwareSleepSeconds, totalHardwareSleepSeconds
        case maximumHardwareSleepSeconds, problems
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(successes, forKey: .successes)
        try container.encodeIfPresent(failures, forKey: .failures)
        try container.encode(failedSteps, forKey: .failedSteps)
        try container.encodeIfPresent(lastFailure, forKey: .lastFailure)
        try container.encodeIfPresent(lastHardwareSleep?.inSeconds, forKey: .lastHardwareSleepSeconds)
        try container.encodeIfPresent(totalHardwareSleep?.inSeconds, forKey: .totalHardwareSleepSeconds)
        try container.encodeIfPresent(maximumHardwareSleep?.inSeconds, forKey: .maximumHardwareSleepSeconds)
        try container.encode(problems, forKey: .problems)
    }
}
