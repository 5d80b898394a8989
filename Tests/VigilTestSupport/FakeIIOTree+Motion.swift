import VigilSensors

/// Fake motion devices: accelerometers and magnetometers holding a pose's readings, and the rotation channels of HID
/// sensor hubs (a heading, a quaternion), polled and buffered, laid out as the kernel does.
extension FakeIIOTree {
    /// The accelerometer's scale in the fake trees: 0.0001 m/s² a count, fine enough for 0.001°.
    package static let accelerationScale = 0.0001
    /// The magnetometer's scale in the fake trees: 10⁻⁶ Gauss (0.0001 µT) a count.
    package static let fieldScale = 0.000001

    /// Adds device N, an accelerometer reading `acceleration` (m/s², device frame) through `mount`.
    package func addAccelerometer(_ number: Int, reading acceleration: Vector3, mount: String? = nil) {
        addVectorDevice(number, name: "accel_3d", type: "accel", scale: Self.accelerationScale, mount: mount)
        setAcceleration(number, acceleration, mount: mount)
    }

    /// Adds device N, a magnetometer reading `microtesla` (device frame) through `mount`.
    package func addMagnetometer(_ number: Int, reading microtesla: Vector3, mount: String? = nil) {
        addVectorDevice(number, name: "magn_3d", type: "magn", scale: Self.fieldScale, mount: mount)
        setField(number, microtesla, mount: mount)
    }

    /// Adds an accelerometer (device N) and a magnetometer (device N + 1) reading what they read at `pose`.
    package func addMotionSensors(_ number: Int, at pose: DevicePose, mount: String? = nil) {
        addAccelerometer(number, reading: pose.acceleration, mount: mount)
        addMagnetometer(number + 1, reading: pose.magneticField, mount: mount)
    }

    /// Writes what device N's accelerometer reads of `acceleration` (m/s², device frame).
    package func setAcceleration(_ number: Int, _ acceleration: Vector3, mount: String? = nil) {
        writeVector(number, type: "accel", acceleration, scale: Self.accelerationScale, mount: mount)
    }

    /// Writes what device N's magnetometer reads of `microtesla` (device frame).
    package func setField(_ number: Int, _ microtesla: Vector3, mount: String? = nil) {
        writeVector(number, type: "magn", microtesla.scaled(by: 0.01), scale: Self.fieldScale, mount: mount)
    }

    /// Adds device N, a HID compass (`magn_3d`) whose own heading channel reads `raw` with `in_rot_scale` `scale`.
    package func addHeadingChannel(_ number: Int, raw: String, scale: String = "0.1", tiltCompensated: Bool = true) {
        let channel = tiltCompensated ? "from_north_magnetic_tilt_comp" : "from_north_magnetic"
        addDevice(
            number, name: "magn_3d",
            files: ["in_rot_\(channel)_raw": raw + "\n", "in_rot_scale": scale + "\n", "in_rot_offset": "0\n"])
    }

    /// Adds device N, a HID device rotation (`dev_rotation`) whose quaternion reads `raw` (`x y z w`) with
    /// `in_rot_quaternion_scale` `scale`.
    package func addQuaternionChannel(_ number: Int, raw: String, scale: String) {
        addDevice(
            number, name: "dev_rotation",
            files: ["in_rot_quaternion_raw": raw + "\n", "in_rot_quaternion_scale": scale + "\n"])
    }

    /// Adds buffered mode to device N's quaternion: the element repeated four times as `type` and a timestamp, and a
    /// FIFO for its node.
    package func addQuaternionBuffer(_ number: Int, type: String = "le:s16/32X4>>0") {
        addBuffer(number, elements: [("rot_quaternion", 0, type), ("timestamp", 1, "le:s64/64>>0")])
        makeFIFO("dev/iio:device\(number)")
    }

    /// Adds buffered mode to device N's heading as a HID compass has it: the field's `x`, `y`, `z` (`le:s32/32`),
    /// the heading (`le:s16/32`) and a timestamp, and a FIFO for its node.
    package func addHeadingBuffer(_ number: Int) {
        let field = ["x", "y", "z"].enumerated().map { ("magn_\($1)", $0, "le:s32/32>>0") }
        let heading = [("rot_from_north_magnetic_tilt_comp", 3, "le:s16/32>>0"), ("timestamp", 4, "le:s64/64>>0")]
        addBuffer(number, elements: field + heading)
        makeFIFO("dev/iio:device\(number)")
    }

    /// One scan of one enabled `rot` element (a heading, or a quaternion's four values) in `storageBytes`-byte
    /// little-endian slots, each slot's bits above `bits` holding junk the decoder must mask, then the timestamp and
    /// the padding.
    package static func rotationScan(
        _ values: [Int64], storageBytes: Int = 4, bits: Int = 16, timestamp: Int64
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        for value in values {
            let junk: UInt64 = bits < storageBytes * 8 ? 0xA5A5_A5A5_A5A5_A5A5 << UInt64(bits) : 0
            let slot = (UInt64(bitPattern: value) & ((bits >= 64 ? 0 : 1 << UInt64(bits)) &- 1)) | junk
            for byte in 0..<storageBytes { bytes.append(UInt8(truncatingIfNeeded: slot >> UInt64(8 * byte))) }
        }
        // The kernel aligns the timestamp to 8 bytes and the scan to its largest element (the quaternion's 16).
        let largest = max(8, bytes.count)
        while bytes.count % 8 != 0 { bytes.append(0) }
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: timestamp >> shift)) }
        while bytes.count % largest != 0 { bytes.append(0) }
        return bytes
    }

    private func addVectorDevice(_ number: Int, name: String, type: String, scale: Double, mount: String?) {
        var files = ["in_\(type)_scale": "\(scale)\n"]
        if let mount { files["in_\(type)_mount_matrix"] = mount + "\n" }
        addDevice(number, name: name, files: files)
    }

    /// Writes the raw counts of `value` (device frame) as the sensor mounted with `mount` reads them.
    private func writeVector(_ number: Int, type: String, _ value: Vector3, scale: Double, mount: String?) {
        let reading = mount.map { MountMatrices.sensorReading(of: value, mount: $0) } ?? value
        let device = "bus/iio/devices/iio:device\(number)"
        for (axis, component) in [("x", reading.x), ("y", reading.y), ("z", reading.z)] {
            write("\(device)/in_\(type)_\(axis)_raw", "\(Int64((component / scale).rounded()))\n")
        }
    }
}
