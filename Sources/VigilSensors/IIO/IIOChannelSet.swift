/// The channels one sensor kind reads on one device, and how their values become a sample.
struct IIOChannelSet: Sendable {
    let device: IIODevice
    let channels: [IIOChannel]
    let matrix: MountMatrix?
    let type: String

    /// Picks the `x`, `y`, `z` channels of `type` (a vector) or its first channel (a scalar) on `device`.
    ///
    /// - Throws: ``SensorError/unavailable(source:reason:)`` when the device lacks the channels, or the mount
    ///   matrix's error when it does not parse.
    init(type: String, isVector: Bool, device: IIODevice) throws(SensorError) {
        let candidates = device.channels(ofType: type)
        if isVector {
            let axes = ["x", "y", "z"].compactMap { axis in candidates.first { $0.modifier == axis } }
            guard axes.count == 3 else {
                throw SensorError.unavailable(
                    source: "\(device.id) (\(device.name))", reason: "no in_\(type)_x, _y and _z channels")
            }
            channels = axes
            matrix = try device.mountMatrix(for: type)
        } else {
            let scalar = candidates.first { $0.modifier == nil } ?? candidates.first
            guard let scalar else {
                throw SensorError.unavailable(source: "\(device.id) (\(device.name))", reason: "no in_\(type) channel")
            }
            channels = [scalar]
            matrix = nil
        }
        self.device = device
        self.type = type
    }

    /// Whether `device` has what a kind of `type` needs.
    static func fits(type: String, isVector: Bool, device: IIODevice) -> Bool {
        let candidates = device.channels(ofType: type)
        guard isVector else { return !candidates.isEmpty }
        return ["x", "y", "z"].allSatisfy { axis in candidates.contains { $0.modifier == axis } }
    }

    /// Reads every channel's calibration.
    func readCalibrations() throws(SensorError) -> [ChannelCalibration] {
        var calibrations: [ChannelCalibration] = []
        for channel in channels { calibrations.append(try channel.readCalibration()) }
        return calibrations
    }

    /// A sample from SI values in channel order, with the mount matrix applied to a vector.
    func sample(values: [Double], timestamp: Int64) -> IIOSample {
        guard let matrix, values.count == 3 else { return IIOSample(values: values, timestamp: timestamp) }
        let rotated = matrix.apply(Vector3(x: values[0], y: values[1], z: values[2]))
        return IIOSample(values: [rotated.x, rotated.y, rotated.z], timestamp: timestamp)
    }
}
