import VigilSensors

extension LocationFix: ReadingMetrics {
    /// `vigil_location_fix` (1 with a fix), the satellites in view, and with a fix the position, altitude, speed,
    /// course, satellites used, DOPs, GST errors and the fix's time; each left out where the receiver gave none.
    func addMetrics(to builder: inout MetricFamilyBuilder) {
        let labels = ["receiver": receiver]
        builder.gauge("vigil_location_fix", "Whether the GNSS receiver has a fix (1) or not (0).", mode.hasFix, labels)
        builder.gauge(
            "vigil_location_satellites_in_view", "Satellites the GNSS receiver has in view (GSV).",
            satellitesInView.map(Double.init), labels)
        guard mode.hasFix else { return }
        builder.gauge("vigil_location_latitude_degrees", "Latitude of the fix, north positive.", latitude, labels)
        builder.gauge("vigil_location_longitude_degrees", "Longitude of the fix, east positive.", longitude, labels)
        builder.gauge("vigil_location_altitude_meters", "Altitude of the fix above mean sea level.", altitude, labels)
        builder.gauge("vigil_location_speed_meters_per_second", "Speed over ground.", speed, labels)
        builder.gauge("vigil_location_course_degrees", "Course over ground, from true north.", course, labels)
        builder.gauge(
            "vigil_location_satellites_used", "Satellites used in the fix.", satellitesUsed.map(Double.init), labels)
        for (kind, value) in [("horizontal", hdop), ("vertical", vdop), ("position", pdop)] {
            builder.gauge(
                "vigil_location_dilution_of_precision", "Dilution of precision of the fix, by kind.", value,
                labels.merging(["kind": kind]) { $1 })
        }
        for (axis, value) in [("latitude", latitudeError), ("longitude", longitudeError), ("altitude", altitudeError)] {
            builder.gauge(
                "vigil_location_error_meters", "Standard deviation of the fix along an axis (GST), in metres.", value,
                labels.merging(["axis": axis]) { $1 })
        }
        builder.gauge(
            "vigil_location_fix_time_seconds", "UTC time of the fix, in seconds since 1970.", time?.secondsSince1970,
            labels)
    }
}
