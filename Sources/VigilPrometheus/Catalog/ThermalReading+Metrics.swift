import VigilSensors

extension ThermalReading: ReadingMetrics {
    var unusableReason: String? {
        guard zones.allSatisfy({ $0.temperatureCelsius == nil }), !(zones.isEmpty && problems.isEmpty) else {
            return nil
        }
        return "no thermal zone reads a temperature"
    }

    var noteCount: Int { zones.reduce(problems.count) { $0 + $1.notes.count } }

    func addMetrics(to builder: inout MetricFamilyBuilder) {
        for zone in zones {
            let labels = ["zone": zone.name, "type": zone.type]
            builder.gauge(
                "vigil_thermal_zone_temp_celsius", "Thermal zone temperature, in degrees Celsius.",
                zone.temperatureCelsius, labels)
            for trip in zone.tripPoints where trip.isValid {
                var tripLabels = labels
                tripLabels["trip_point"] = String(trip.index)
                tripLabels["trip_type"] = trip.kind
                builder.gauge(
                    "vigil_thermal_zone_trip_point_temp_celsius",
                    "Temperature of a thermal zone's trip point, in degrees Celsius.", trip.temperatureCelsius,
                    tripLabels)
            }
        }
    }
}
