/// The channels one sensor kind reads on one device, and how their values become a sample.
struct IIOChannelSet: Sendable {
    let device: IIODevice
    let channels: [IIOChannel]
    let matrix: MountMatrix?
    let type: String
    let selection: IIOChannelSelection

    /// Picks the channels of `type` that `selection` names on `device`.
    ///
    /// - Throws: ``SensorError/unavailable(source:reason:)`` when the device lacks the channels, or the mount
    ///   matrix's error when it does not parse.
    init(type: String, selection: IIOChannelSelection, device: IIODevice) throws(SensorError) {
        guard let channels = Self.pick(type: type, selection: selection, device: device) else {
            throw SensorError.unavailable(
                source: "\(device.id) (\(device.name))", reason: selection.lacking(type: type))
        }
        self.channels = channels
        matrix = selection == .vector ? try device.mountMatrix(for: type) : nil
        self.device = device
        self.type = type
        self.selection = selection
    }

    /// Whether `device` has what a kind of `type` reading `selection` needs.
    static func fits(type: String, selection: IIOChannelSelection, device: IIODevice) -> Bool {
        pick(type: type, selection: selection, device: device) != nil
    }

    /// The channels `selection` names, in sample order; nil when the device lacks one.
    private static func pick(type: String, selection: IIOChannelSelection, device: IIODevice) -> [IIOChannel]? {
        let candidates = device.channels(ofType: type)
        switch selection {
        case .scalar:
            return (candidates.first { $0.modifier == nil } ?? candidates.first).map { [$0] }
        case .vector:
            let axes = ["x", "y", "z"].compactMap { axis in candidates.first { $0.modifier == axis } }
            return axes.count == 3 ? axes : nil
        case .firstOf(let modifiers):
            let first = modifiers.lazy.compactMap { modifier in candidates.first { $0.modifier == modifier } }.first
            return first.map { [$0] }
        case .repeated(let modifier, _):
            return candidates.first { $0.modifier == modifier }.map { [$0] }
        }
    }

    /// Reads every channel's calibration.
    func readCalibrations() throws(SensorError) -> [ChannelCalibration] {
        var calibrations: [ChannelCalibration] = []
        for channel in channels { calibrations.append(try channel.readCalibration()) }
        return calibrations
    }

    /// Reads the channels' current values in SI units from sysfs, in sample order.
    ///
    /// - Throws: What reading an attribute throws (see ``IIOChannel/readValue(calibration:)`` and
    ///   ``IIOChannel/readValues(count:calibration:)``).
    func readValues(calibrations: [ChannelCalibration]) throws(SensorError) -> [Double] {
        if case .repeated(_, let count) = selection, let channel = channels.first {
            return try channel.readValues(count: count, calibration: calibrations.first)
        }
        var values: [Double] = []
        for (channel, calibration) in zip(channels, calibrations) {
            values.append(try channel.readValue(calibration: calibration))
        }
        return values
    }

    /// The channels' values in SI units from one decoded scan, in sample order.
    ///
    /// - Parameter node: The device node the scan came from, named in an error.
    /// - Throws: ``SensorError/valueOutOfRange(path:value:range:)`` when a calibrated value is not finite, and
    ///   ``SensorError/malformedMessage(source:reason:)`` when a channel's element is missing from the scan or holds
    ///   another number of values than the selection reads.
    func values(in scan: IIOScan, calibrations: [ChannelCalibration], node: String) throws(SensorError) -> [Double] {
        let expected = channels.count == 1 ? selection.valueCount : 1
        var values: [Double] = []
        for (channel, calibration) in zip(channels, calibrations) {
            guard let raws = scan.values[channel.name], raws.count == expected else {
                let count = scan.values[channel.name]?.count ?? 0
                throw SensorError.malformedMessage(
                    source: node,
                    reason:
                        "the scan element \(channel.name) holds \(count) value\(count == 1 ? "" : "s"), not \(expected)"
                )
            }
            for raw in raws { values.append(try calibration.checkedApply(Double(raw), path: node)) }
        }
        return values
    }

    /// A sample from SI values in channel order, with the mount matrix applied to a vector.
    func sample(values: [Double], timestamp: Int64) -> IIOSample {
        guard let matrix, values.count == 3 else { return IIOSample(values: values, timestamp: timestamp) }
        let rotated = matrix.apply(Vector3(x: values[0], y: values[1], z: values[2]))
        return IIOSample(values: [rotated.x, rotated.y, rotated.z], timestamp: timestamp)
    }
}
