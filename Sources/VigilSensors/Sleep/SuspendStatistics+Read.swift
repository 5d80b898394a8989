extension SuspendStatistics {
    /// The longest device name kept from `last_failed_dev`; the kernel keeps 40 bytes, so more is not the kernel's.
    package static let deviceNameLimit = 64

    /// Reads `<directory>/*` (normally `/sys/power/suspend_stats`), every attribute with the bounded reader.
    ///
    /// - Parameter directory: The statistics directory.
    /// - Returns: The statistics, or nil when there is no such directory (a kernel without `CONFIG_PM_SLEEP`, older
    ///   than Linux 5.4, or a tree without it).
    package static func read(directory: String) -> SuspendStatistics? {
        guard SysfsFile.isDirectory(directory) else { return nil }
        var reader = AttributeReader(directory: directory)
        var statistics = SuspendStatistics()
        statistics.successes = reader.count("success")
        statistics.failures = reader.count("fail")
        statistics.failedSteps = Step.counted.compactMap { step in
            reader.count("failed_" + step.rawValue).map { StepFailures(step: step, count: $0) }
        }
        let failure = Failure(
            device: reader.text("last_failed_dev").map(Self.deviceName),
            errno: reader.errno("last_failed_errno"),
            step: reader.text("last_failed_step").map(Step.init(rawValue:)))
        if failure != Failure() { statistics.lastFailure = failure }
        statistics.lastHardwareSleep = reader.microseconds("last_hw_sleep")
        statistics.totalHardwareSleep = reader.microseconds("total_hw_sleep")
        statistics.maximumHardwareSleep = reader.microseconds("max_hw_sleep")
        statistics.problems = reader.problems
        return statistics
    }

    /// A device name as shown: at most ``deviceNameLimit`` characters.
    private static func deviceName(_ text: String) -> String {
        text.count <= deviceNameLimit ? text : String(text.prefix(deviceNameLimit)) + "…"
    }

    /// Reads one attribute at a time; a missing one is nil, an unreadable or malformed one is nil and a problem.
    private struct AttributeReader {
        let directory: String
        var problems: [String] = []

        init(directory: String) { self.directory = directory }

        /// The trimmed text, or nil when missing, unreadable or empty.
        mutating func text(_ name: String) -> String? {
            do throws(SensorError) {
                let trimmed = try SysfsFile.readText(directory + "/" + name).trimmingWhitespace()
                return trimmed.isEmpty ? nil : trimmed
            } catch {
                if case .notFound = error { return nil }
                problems.append(error.description)
                return nil
            }
        }

        /// A counter (`%u`): a whole number, not negative.
        mutating func count(_ name: String) -> Int? {
            number(name, expected: "a count") { Int($0).flatMap { $0 >= 0 ? $0 : nil } }
        }

        /// `last_failed_errno` (`%d`, negated): nil for 0, the error otherwise.
        mutating func errno(_ name: String) -> Errno? {
            let value = number(name, expected: "an errno number") { Int32($0) }
            guard let value, value != 0, value != .min else { return nil }
            return Errno(rawValue: value < 0 ? -value : value)
        }

        /// A time in microseconds (`%llu`).
        mutating func microseconds(_ name: String) -> Duration? {
            number(name, expected: "microseconds") { UInt64($0).flatMap { Int64(exactly: $0) } }
                .map { Duration.microseconds($0) }
        }

        private mutating func number<Value>(
            _ name: String, expected: String, _ parse: (String) -> Value?
        ) -> Value? {
            guard let raw = text(name) else { return nil }
            guard let value = parse(raw) else {
                let shown = raw.count <= 32 ? raw : String(raw.prefix(32)) + "…"
                problems.append(
                    SensorError.malformedValue(path: directory + "/" + name, text: shown, expected: expected)
                        .description)
                return nil
            }
            return value
        }
    }
}
