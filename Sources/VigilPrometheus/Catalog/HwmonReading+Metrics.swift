import VigilSensors

extension HwmonReading: ReadingMetrics {
    var unusableReason: String? {
        let inputs = chips.reduce(0) { $0 + $1.temperatures.count + $1.fans.count + $1.voltages.count }
        guard inputs == 0, !(chips.isEmpty && problems.isEmpty) else { return nil }
        return "no hardware monitor input reads a value"
    }

    var noteCount: Int { chips.reduce(problems.count) { $0 + $1.notes.count } }

    func addMetrics(to builder: inout MetricFamilyBuilder) {
        for chip in chips {
            func labels(_ channel: HwmonChip.Channel) -> [String: String] {
                ["device": chip.name, "chip": chip.chip, "sensor": channel.id, "label": channel.label]
            }
            for channel in chip.temperatures {
                builder.gauge(
                    "vigil_hwmon_temp_celsius", "Hardware monitor temperature, in degrees Celsius.", channel.value,
                    labels(channel))
            }
            for channel in chip.fans {
                builder.gauge(
                    "vigil_hwmon_fan_rpm", "Hardware monitor fan speed, in revolutions per minute.", channel.value,
                    labels(channel))
            }
            for channel in chip.voltages {
                builder.gauge(
                    "vigil_hwmon_in_volts", "Hardware monitor voltage input, in volts.", channel.value,
                    labels(channel))
            }
        }
    }
}
