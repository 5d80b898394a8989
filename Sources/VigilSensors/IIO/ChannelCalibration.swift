/// How a channel's raw integer becomes a value in SI units: `(raw + offset) × scale`.
///
/// This is the IIO ABI's rule for `in_<type>_raw` with `_offset` and `_scale`. A channel without `_scale` has scale
/// 1 and one without `_offset` has offset 0. A channel that reports `_input` is already in SI units and needs no
/// calibration.
package struct ChannelCalibration: Hashable, Sendable {
    /// The factor applied after the offset.
    package let scale: Double
    /// The offset added to the raw value.
    package let offset: Double

    /// No change: scale 1, offset 0.
    package static let identity = ChannelCalibration(checkedScale: 1, offset: 0)

    private init(checkedScale: Double, offset: Double) {
        self.scale = checkedScale
        self.offset = offset
    }

    /// Creates a calibration, rejecting a scale that would turn every reading into zero.
    ///
    /// - Parameters:
    ///   - scale: The `_scale` value.
    ///   - offset: The `_offset` value.
    ///   - path: The `_scale` or `_offset` file, named in the error.
    /// - Throws: ``SensorError/valueOutOfRange(path:value:range:)`` when the scale is zero or either value is not
    ///   finite: a zero scale means the driver has not been configured and every reading would read 0.
    package init(scale: Double, offset: Double = 0, path: String = "") throws(SensorError) {
        guard scale.isFinite, scale != 0 else {
            throw SensorError.valueOutOfRange(path: path, value: String(scale), range: "a finite, non-zero scale")
        }
        guard offset.isFinite else {
            throw SensorError.valueOutOfRange(path: path, value: String(offset), range: "a finite offset")
        }
        self.init(checkedScale: scale, offset: offset)
    }

    /// The SI value of a raw reading: `(raw + offset) × scale`.
    package func apply(_ raw: Double) -> Double {
        (raw + offset) * scale
    }

    /// The SI value of a raw reading, refusing one that is not finite.
    ///
    /// - Parameters:
    ///   - raw: The raw value read from `path`.
    ///   - path: The `_raw` file or device node the value came from, named in the error.
    /// - Throws: ``SensorError/valueOutOfRange(path:value:range:)`` quoting the raw value when `(raw + offset) ×
    ///   scale` overflows to infinity or is NaN.
    func checkedApply(_ raw: Double, path: String) throws(SensorError) -> Double {
        let value = apply(raw)
        guard value.isFinite else {
            throw SensorError.valueOutOfRange(
                path: path, value: String(raw),
                range: "a raw value whose (raw + \(offset)) × \(scale) is finite (it gives \(value))")
        }
        return value
    }
}
