import Glibc

/// Numbers as the dashboard prints them: a fixed number of decimals and a unit.
enum PlotFormat {
    /// `value` with `decimals` places, or `-` when it is not finite.
    static func fixed(_ value: Double, _ decimals: Int = 1) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return "-" }
        let scale = Double(Int(pow(10, Double(decimals))))
        let rounded = (value * scale).rounded() / scale
        guard decimals > 0 else { return String(Int(rounded)) }
        let whole = Int(rounded.magnitude)
        let fraction = Int(((rounded.magnitude - Double(whole)) * scale).rounded())
        let digits = String(fraction)
        let sign = rounded < 0 ? "-" : ""
        return sign + String(whole) + "." + String(repeating: "0", count: max(0, decimals - digits.count)) + digits
    }

    /// A fraction (0.5) as a percentage ("50.0 %").
    static func percent(_ fraction: Double) -> String { fixed(fraction * 100) + " %" }

    /// A byte count in binary units ("15.5 GiB").
    static func bytes(_ count: UInt64) -> String {
        var value = Double(count)
        for unit in ["B", "KiB", "MiB", "GiB", "TiB"] {
            if value < 1024 || unit == "TiB" { return (unit == "B" ? String(count) : fixed(value)) + " " + unit }
            value /= 1024
        }
        return String(count) + " B"
    }
}
