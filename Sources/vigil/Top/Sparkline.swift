/// A row of block elements (▁▂▃▄▅▆▇█), one a sample, showing recent history at a glance.
enum Sparkline {
    static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// The last `width` of `values`, each one block, scaled to `scale` or, when nil, to their own minimum and maximum
    /// (a flat history draws the middle block); a value that is not finite draws a space.
    static func render(_ values: some Collection<Double>, width: Int, scale: ClosedRange<Double>?) -> String {
        let shown = values.suffix(max(0, width))
        let finite = shown.filter(\.isFinite)
        guard let low = scale?.lowerBound ?? finite.min(), let high = scale?.upperBound ?? finite.max() else {
            return String(repeating: " ", count: shown.count)
        }
        return String(
            shown.map { value -> Character in
                guard value.isFinite else { return " " }
                guard high > low else { return blocks[blocks.count / 2 - 1] }
                let position = (min(max(value, low), high) - low) / (high - low)
                return blocks[min(blocks.count - 1, Int(position * Double(blocks.count)))]
            })
    }
}
