import Glibc
import VigilSensors

/// Wall-clock times as the dashboard prints them.
enum TopClock {
    /// The local time of day of `wall` (a duration since the Unix epoch) as `HH:MM:SS`.
    static func timeOfDay(_ wall: Duration) -> String {
        var seconds = time_t(wall.components.seconds)
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return "--:--:--" }
        return [parts.tm_hour, parts.tm_min, parts.tm_sec].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
    }

    /// The local time of day now.
    static func now() -> String { timeOfDay(ReadingTime.now().wall) }
}
