import VigilSensors

extension Accelerometer.Value: ReadingMetrics {
    func addMetrics(to builder: inout MetricFamilyBuilder) {
        builder.axes(
            "vigil_accelerometer_meters_per_second_squared", "Acceleration along an axis, in m/s².", acceleration)
    }
}

extension Gyroscope.Value: ReadingMetrics {
    func addMetrics(to builder: inout MetricFamilyBuilder) {
        builder.axes("vigil_gyroscope_radians_per_second", "Rotation rate about an axis, in rad/s.", rotationRate)
    }
}

extension Magnetometer.Value: ReadingMetrics {
    func addMetrics(to builder: inout MetricFamilyBuilder) {
        builder.axes("vigil_magnetometer_tesla", "Magnetic field along an axis, in tesla.", microtesla.scaled(by: 1e-6))
    }
}

extension AmbientLight.Value: ReadingMetrics {
    func addMetrics(to builder: inout MetricFamilyBuilder) {
        builder.gauge("vigil_ambient_light_lux", "Illuminance, in lux.", lux)
    }
}

extension ProximitySensor.Value: ReadingMetrics {
    func addMetrics(to builder: inout MetricFamilyBuilder) {
        builder.gauge("vigil_proximity_level", "Proximity level in the sensor's own units (higher is nearer).", level)
        builder.gauge("vigil_proximity_near", "Whether something is near (1) or far (0), by the threshold.", isNear)
    }
}

extension Barometer.Value: ReadingMetrics {
    func addMetrics(to builder: inout MetricFamilyBuilder) {
        builder.gauge("vigil_barometer_pressure_pascals", "Air pressure, in pascals.", kilopascals * 1000)
        builder.gauge(
            "vigil_barometer_altitude_meters", "Altitude from the barometric formula, in meters.", altitude)
        builder.gauge(
            "vigil_barometer_relative_altitude_meters", "Altitude change since the source started, in meters.",
            relativeAltitude)
    }
}

extension ScreenOrientation: ReadingMetrics {
    func addMetrics(to builder: inout MetricFamilyBuilder) {
        for candidate in [ScreenOrientation.normal, .bottomUp, .leftUp, .rightUp, .undefined] {
            builder.gauge(
                "vigil_screen_orientation", "Screen orientation: 1 for the current one, 0 for the others.",
                candidate == self, ["orientation": candidate.rawValue])
        }
    }
}

extension MetricFamilyBuilder {
    /// One gauge sample per axis, labelled `axis="x"`, `"y"`, `"z"`.
    mutating func axes(_ name: String, _ help: String, _ vector: Vector3) {
        gauge(name, help, vector.x, ["axis": "x"])
        gauge(name, help, vector.y, ["axis": "y"])
        gauge(name, help, vector.z, ["axis": "z"])
    }
}
