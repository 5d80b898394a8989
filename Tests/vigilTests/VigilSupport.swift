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
}
