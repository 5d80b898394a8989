/// Pressure stall information (PSI) from `/proc/pressure/memory` (or `cpu`, `io`).
///
/// Units: averages are percentages of wall time, 0...100, over the last 10, 60 and 300 seconds; totals are
/// microseconds of stall since boot. "some" counts time when at least one task stalled, "full" time when all
/// non-idle tasks stalled at once.
public struct PressureStall: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The "some" line.
    public let some: Averages
    /// The "full" line; `nil` for `/proc/pressure/cpu` on kernels before 5.13, which have none.
    public let full: Averages?
    /// How bad the pressure is, judged by ``Thresholds``.
    public let level: Level
    /// How the source learns about changes.
    public let mode: Mode

    /// One PSI line.
    public struct Averages: Sendable, Equatable, Encodable {
        /// Percent of the last 10 s stalled.
        public let avg10: Double
        /// Percent of the last 60 s stalled.
        public let avg60: Double
        /// Percent of the last 300 s stalled.
        public let avg300: Double
        /// Microseconds stalled since boot.
        public let totalMicroseconds: UInt64
    }

    /// How bad the pressure is: the Linux analogue of an app's memory warning.
    public enum Level: String, Sendable, Equatable, Encodable, Comparable {
        /// Little or no stall: below the warning threshold.
        case normal

        /// Tasks are stalling noticeably: time to shed caches or defer work.
        case warning

        /// Tasks are stalling badly: the system is close to thrashing or the OOM killer.
        case critical

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rank < rhs.rank }

        private var rank: Int {
            switch self {
            case .normal: return 0
            case .warning: return 1
            case .critical: return 2
            }
        }
    }

    /// How a pressure source learns about changes.
    public enum Mode: Sendable, Equatable, Encodable, CustomStringConvertible {
        /// A kernel trigger was registered and the source wakes on `POLLPRI`.
        case trigger
        /// The source polls the averages; `reason` says why no trigger is used (for example the kernel refused it).
        case polling(reason: String)
        /// A single read, not a running source.
        case snapshot

        public var description: String {
            switch self {
            case .trigger: return "trigger"
            case .polling(let reason): return "polling (\(reason))"
            case .snapshot: return "snapshot"
            }
        }

        private enum CodingKeys: String, CodingKey { case kind, reason }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .trigger: try container.encode("trigger", forKey: .kind)
            case .snapshot: try container.encode("snapshot", forKey: .kind)
            case .polling(let reason):
                try container.encode("polling", forKey: .kind)
                try container.encode(reason, forKey: .reason)
            }
        }
    }

    /// The avg10 percentages at which the level rises.
    ///
    /// Defaults: warning when "some" avg10 reaches 10 % (tasks often wait for memory), critical when "full" avg10
    /// reaches 10 % or "some" avg10 reaches 40 % (the system is thrashing).
    public struct Thresholds: Sendable, Equatable {
        /// "some" avg10 percent at which the level becomes warning.
        public var warningSome: Double
        /// "some" avg10 percent at which the level becomes critical.
        public var criticalSome: Double
        /// "full" avg10 percent at which the level becomes critical.
        public var criticalFull: Double

        /// Creates thresholds; the defaults are those described on the type.
        public init(warningSome: Double = 10, criticalSome: Double = 40, criticalFull: Double = 10) {
            self.warningSome = warningSome
            self.criticalSome = criticalSome
            self.criticalFull = criticalFull
        }

        /// The level for `some` and `full` averages.
        public func level(some: Averages, full: Averages?) -> Level {
            if some.avg10 >= criticalSome || (full?.avg10 ?? 0) >= criticalFull { return .critical }
            if some.avg10 >= warningSome { return .warning }
            return .normal
        }
    }

    /// Parses PSI text (`some avg10=0.12 avg60=… avg300=… total=…` and an optional `full …` line).
    ///
    /// - Throws: ``SensorError/malformedValue(path:text:expected:)`` when the "some" line is missing or a field is
    ///   missing or not a number; ``SensorError/valueOutOfRange(path:value:range:)`` for an average outside 0...100.
    package static func parse(
        _ text: String, path: String = "/proc/pressure/memory", thresholds: Thresholds = Thresholds(),
        mode: Mode = .snapshot
    ) throws(SensorError) -> PressureStall {
        var some: Averages?
        var full: Averages?
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard let kind = fields.first, kind == "some" || kind == "full" else { continue }
            var values: [Substring: Substring] = [:]
            for field in fields.dropFirst() {
                let pair = field.split(separator: "=", maxSplits: 1)
                guard pair.count == 2 else {
                    throw SensorError.malformedValue(path: path, text: String(line), expected: "key=value fields")
                }
                values[pair[0]] = pair[1]
            }
            func average(_ key: Substring) throws(SensorError) -> Double {
                guard let text = values[key] else {
                    throw SensorError.malformedValue(path: path, text: String(line), expected: "an \(key) field")
                }
                let value = try AttributeParser.double(String(text), path: path)
                guard (0...100).contains(value) else {
                    throw SensorError.valueOutOfRange(path: path, value: String(text), range: "0...100 %")
                }
                return value
            }
            guard let total = values["total"].flatMap({ UInt64($0) }) else {
                throw SensorError.malformedValue(path: path, text: String(line), expected: "a total=microseconds field")
            }
            let averages = Averages(
                avg10: try average("avg10"), avg60: try average("avg60"), avg300: try average("avg300"),
                totalMicroseconds: total)
            if kind == "some" { some = averages } else { full = averages }
        }
        guard let some else {
            throw SensorError.malformedValue(path: path, text: String(text.prefix(64)), expected: "a \"some\" PSI line")
        }
        return PressureStall(some: some, full: full, level: thresholds.level(some: some, full: full), mode: mode)
    }

    public var description: String {
        var text = "pressure \(level.rawValue): some " + UnitFormat.fixed(some.avg10, 2) + " %"
        if let full { text += ", full " + UnitFormat.fixed(full.avg10, 2) + " %" }
        return text + " (avg10; \(mode))"
    }
}
