/// Formats numbers for the human one-line forms of readings, without Foundation.
enum UnitFormat {
    /// `value` rounded to `decimals` places, for example `fixed(3.14159, 2)` is `"3.14"`.
    static func fixed(_ value: Double, _ decimals: Int = 1) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        var scale = 1.0
        for _ in 0..<max(0, decimals) { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9.0e15 else { return String(value) }
        let whole = Int(scaled) / Int(scale)
        let fraction = Int(scaled) % Int(scale)
        let sign = value < 0 && scaled > 0 ? "-" : ""
        guard decimals > 0 else { return sign + String(whole) }
        let digits = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: decimals - digits.count) + digits
    }

    /// A fraction 0...1 as a percentage with one decimal, for example `"42.5 %"`.
    ///
    /// A finite fraction too large to scale by 100 (above ~1.8e306) is printed as the fraction itself, times 100,
    /// so only a real infinity prints `inf`.
    static func percent(_ fraction: Double) -> String {
        let scaled = fraction * 100
        guard scaled.isFinite || !fraction.isFinite else { return String(fraction) + " × 100 %" }
        return fixed(scaled) + " %"
    }

    /// A byte count in binary units, for example `"1.5 GiB"`.
    static func bytes(_ count: UInt64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]
        var value = Double(count)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(count) B" : fixed(value) + " " + units[unit]
    }

    /// A duration in seconds as hours and minutes, for example `"2 h 05 min"`.
    ///
    /// Computed in floating point, so any finite duration formats without trapping; one of more than a million
    /// hours is given in whole hours (`"5.6e+16 h"` style for the absurd ones). Negative, NaN or infinite seconds
    /// give `"unknown"`.
    static func duration(seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "unknown" }
        let minutes = (seconds / 60).rounded()
        guard minutes < 60_000_000 else { return fixed(seconds / 3600, 0) + " h" }
        let whole = Int(minutes)
        let tail = whole % 60 < 10 ? "0\(whole % 60)" : "\(whole % 60)"
        return "\(whole / 60) h \(tail) min"
    }
}
