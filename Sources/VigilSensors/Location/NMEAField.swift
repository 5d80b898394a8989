/// The field syntaxes of NMEA 0183, parsed by hand so that nothing a hostile stream sends (`nan`, `inf`, `1e999`,
/// a thousand digits) becomes a number.
enum NMEAField {
    /// The most characters of a number read; a longer field is not a number.
    static let maximumDigits = 16

    /// A decimal such as `-16.7` or `4907.85331`: an optional minus, digits, at most one point. Nil otherwise.
    static func decimal(_ field: Substring) -> Double? {
        guard !field.isEmpty, field.count <= maximumDigits else { return nil }
        var digits = 0
        var points = 0
        for (offset, character) in field.enumerated() {
            switch character {
            case "0"..."9": digits += 1
            case ".": points += 1
            case "-" where offset == 0: continue
            default: return nil
            }
        }
        guard digits > 0, points <= 1 else { return nil }
        return Double(field)
    }

    /// A count such as `08`: digits only. Nil otherwise.
    static func count(_ field: Substring) -> Int? {
        guard !field.isEmpty, field.count <= 6, field.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        return Int(field)
    }

    /// A latitude or longitude, `ddmm.mmmm` (or `dddmm.mmmm`) with its hemisphere, in signed decimal degrees; nil
    /// when empty, malformed or out of range.
    ///
    /// - Parameters:
    ///   - negative: The hemisphere letter that makes the angle negative (`S` or `W`).
    ///   - positive: The one that keeps it positive (`N` or `E`).
    ///   - limit: The largest absolute value, 90 or 180.
    static func angle(_ field: Substring, _ hemisphere: Substring, negative: String, positive: String, limit: Double)
        -> Double?
    {
        guard let value = decimal(field), value >= 0 else { return nil }
        let degrees = (value / 100).rounded(.down)
        let minutes = value - degrees * 100
        guard minutes < 60 else { return nil }
        let angle = degrees + minutes / 60
        guard angle <= limit else { return nil }
        switch hemisphere {
        case Substring(positive): return angle
        case Substring(negative): return -angle
        default: return nil
        }
    }

    /// A UTC time of day, `hhmmss` or `hhmmss.sss`, in seconds since midnight; nil when malformed.
    static func timeOfDay(_ field: Substring) -> Double? {
        guard field.count >= 6, let value = decimal(field), value >= 0 else { return nil }
        let whole = Int(value)
        let (hours, minutes, seconds) = (whole / 10000, whole / 100 % 100, value - Double(whole / 100 * 100))
        // 60 is a leap second.
        guard hours < 24, minutes < 60, seconds < 61 else { return nil }
        return Double(hours * 3600 + minutes * 60) + seconds
    }

    /// An RMC date, `ddmmyy`, with the year taken in 1980–2079 (GPS time began in 1980); nil when malformed.
    static func date(_ field: Substring) -> FixTime.Date? {
        guard field.count == 6, let value = count(field) else { return nil }
        let year = value % 100
        return FixTime.Date(year: year < 80 ? 2000 + year : 1900 + year, month: value / 100 % 100, day: value / 10000)
    }
}
