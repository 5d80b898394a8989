/// The UTC time of a fix, to the receiver's fraction of a second: printed and encoded as ISO 8601
/// (`2014-12-31T03:07:19.000Z`, as gpsd writes it).
public struct FixTime: Sendable, Hashable, Encodable, CustomStringConvertible {
    /// A calendar date, as the receiver gave it.
    package struct Date: Sendable, Hashable {
        let year: Int
        let month: Int
        let day: Int

        /// Nil unless the date exists (the 30th of February does not).
        package init?(year: Int, month: Int, day: Int) {
            guard (1980...2200).contains(year), (1...12).contains(month), day >= 1,
                day <= Self.days(inMonth: month, year: year)
            else { return nil }
            self.year = year
            self.month = month
            self.day = day
        }

        private static func days(inMonth month: Int, year: Int) -> Int {
            switch month {
            case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
            case 4, 6, 9, 11: return 30
            default: return 31
            }
        }

        /// Days since 1970-01-01 (Howard Hinnant's `days_from_civil`).
        var daysSince1970: Int {
            let shifted = month <= 2 ? year - 1 : year
            let era = shifted / 400
            let yearOfEra = shifted - era * 400
            let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
            let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
            return era * 146_097 + dayOfEra - 719_468
        }
    }

    /// Seconds since 1970-01-01T00:00:00Z, leap seconds not counted (POSIX time).
    public let secondsSince1970: Double
    private let date: Date
    private let secondOfDay: Double

    package init(date: Date, secondOfDay: Double) {
        self.date = date
        self.secondOfDay = secondOfDay
        secondsSince1970 = Double(date.daysSince1970) * 86_400 + secondOfDay
    }

    /// For example `2014-12-31T03:07:19.000Z`.
    public var description: String {
        let milliseconds = Int((secondOfDay * 1000).rounded())
        // A leap second, 23:59:60, is past the day's last minute.
        let hours = min(milliseconds / 3_600_000, 23)
        let minutes = min((milliseconds - hours * 3_600_000) / 60_000, 59)
        let seconds = (milliseconds - hours * 3_600_000 - minutes * 60_000) / 1000
        return "\(date.year)-\(Self.padded(date.month, 2))-\(Self.padded(date.day, 2))T"
            + "\(Self.padded(hours, 2)):\(Self.padded(minutes, 2)):\(Self.padded(seconds, 2))."
            + "\(Self.padded(milliseconds % 1000, 3))Z"
    }

    /// Encodes as ``description``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
