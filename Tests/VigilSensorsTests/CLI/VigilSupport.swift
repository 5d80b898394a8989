import Foundation
import Glibc
import Testing
import VigilTestSupport

/// Helpers the end-to-end `vigil` tests share.
enum VigilOutput {
    /// Each line of `text` parsed as one JSON object; fails the test for a line that is not.
    static func objects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
        }
    }

    /// Whether `time` is RFC 3339 in UTC with microseconds: `2026-12-04T17:10:00.123456Z`.
    static func isRFC3339Microseconds(_ time: Any?) -> Bool {
        guard let time = time as? String else { return false }
        return time.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$"#, options: .regularExpression) != nil
    }

    /// The user plus system CPU time of process `pid` in clock ticks, from `/proc/PID/stat`.
    static func cpuTicks(_ pid: pid_t) -> Int? {
        guard let stat = readWholeFile("/proc/\(pid)/stat"),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm) ": state is field 3; utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    /// The resident memory of process `pid` in kB, from `VmRSS` in `/proc/PID/status`.
    static func residentKilobytes(_ pid: pid_t) -> Int? {
        guard let status = readWholeFile("/proc/\(pid)/status") else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return line?.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }
}
