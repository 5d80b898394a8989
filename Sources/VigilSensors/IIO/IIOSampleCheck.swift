/// What makes a sample unfit to become a reading, beyond being read: values that overflowed to infinity after the
/// mount matrix, or values a kind cannot turn into finite numbers (a pressure that is not positive).
///
/// A reading that held NaN or infinity could not be written as JSON and would mislead as a number; such a sample is
/// published as `unavailable` with this reason instead.
enum IIOSampleCheck {
    /// Why `sample` cannot become a reading of `kind`, quoting its values; nil when it can.
    static func problem<Kind: IIOSensorKind>(with sample: IIOSample, kind: Kind.Type) -> String? {
        let values = sample.values.map { String($0) }.joined(separator: ", ")
        if sample.values.contains(where: { !$0.isFinite }) {
            return "the sample (\(values)) is not finite after the mount matrix"
        }
        if let kind = kind as? any IIOSampleRequirements.Type, let problem = kind.problem(with: sample) {
            return problem
        }
        return nil
    }
}

/// A sensor kind whose value needs more of a sample than finite SI values.
protocol IIOSampleRequirements {
    /// Why the kind cannot turn `sample` into a finite value; nil when it can.
    static func problem(with sample: IIOSample) -> String?
}

extension Barometer: IIOSampleRequirements {
    /// A pressure that is not positive has no altitude (the barometric formula takes a power of it).
    static func problem(with sample: IIOSample) -> String? {
        sample.scalar > 0 ? nil : "pressure \(sample.scalar) kPa is not positive"
    }
}

extension Magnetometer: IIOSampleRequirements {
    /// A field so large that it overflows when converted from Gauss to µT.
    static func problem(with sample: IIOSample) -> String? {
        let limit = Double.greatestFiniteMagnitude / 100
        guard let huge = sample.values.first(where: { abs($0) > limit }) else { return nil }
        return "field \(huge) G is too large to express in µT"
    }
}
