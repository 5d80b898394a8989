import VigilSensors

extension Backlight: ReadingMetrics {
    var noteCount: Int { notes.count }

    func addMetrics(to builder: inout MetricFamilyBuilder) {
        let labels = ["device": name]
        builder.gauge(
            "vigil_backlight_brightness_ratio", "Backlight brightness as a fraction of the maximum, 0 to 1.", fraction,
            labels)
        builder.gauge(
            "vigil_backlight_brightness", "Backlight brightness in the device's own steps (actual_brightness).",
            Double(actualBrightness), labels)
        builder.gauge(
            "vigil_backlight_max_brightness", "The device's maximum brightness step (max_brightness).",
            Double(maximumBrightness), labels)
    }
}
