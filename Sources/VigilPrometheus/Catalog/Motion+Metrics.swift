import VigilSensors

extension CompassHeading: ReadingMetrics {
    /// `vigil_compass_heading_degrees` from magnetic north, and from true north with a declination; fused, the field
    /// strength and whether it is uncalibrated. Labelled with the `method`, device channel or fused.
    func addMetrics(to builder: inout MetricFamilyBuilder) {
        let labels = ["method": method.rawValue]
        let help = "Compass heading of the device's top edge, clockwise from north (magnetic or true)."
        builder.gauge(
            "vigil_compass_heading_degrees", help, magneticHeading, labels.merging(["north": "magnetic"]) { $1 })
        builder.gauge("vigil_compass_heading_degrees", help, trueHeading, labels.merging(["north": "true"]) { $1 })
        builder.gauge(
            "vigil_compass_field_tesla", "Strength of the magnetic field the heading was fused from, in tesla.",
            fieldStrength.map { $0 * 1e-6 }, labels)
        builder.gauge(
            "vigil_compass_uncalibrated",
            "Whether the field is far outside the Earth's 25-65 µT (1), so the magnetometer needs calibrating.",
            fieldStrength == nil ? nil : isUncalibrated, labels)
    }
}

extension Attitude: ReadingMetrics {
    /// Yaw, pitch and roll in degrees (CoreMotion's convention) and the unit quaternion's components, labelled with
    /// the `method`; fused, whether the field is uncalibrated.
    func addMetrics(to builder: inout MetricFamilyBuilder) {
        let labels = ["method": method.rawValue]
        builder.gauge(
            "vigil_attitude_yaw_degrees", "Turn about the vertical, counter-clockwise from north (-180 to 180).", yaw,
            labels)
        builder.gauge(
            "vigil_attitude_pitch_degrees", "How far the top edge points up: 0 flat, 90 upright (-90 to 90).", pitch,
            labels)
        builder.gauge(
            "vigil_attitude_roll_degrees", "Tilt about the long edge, positive with the right edge down (-180 to 180).",
            roll, labels)
        for (component, value) in [("w", quaternion.w), ("x", quaternion.x), ("y", quaternion.y), ("z", quaternion.z)] {
            builder.gauge(
                "vigil_attitude_quaternion",
                "Component of the unit quaternion turning the device's frame into east, north, up.", value,
                labels.merging(["component": component]) { $1 })
        }
        builder.gauge(
            "vigil_attitude_uncalibrated",
            "Whether the field the attitude was fused from is far outside the Earth's (1): yaw is not to be trusted.",
            fieldStrength == nil ? nil : isUncalibrated, labels)
    }
}
