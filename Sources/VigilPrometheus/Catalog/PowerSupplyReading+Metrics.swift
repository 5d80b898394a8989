import VigilSensors

extension PowerSupplyReading: ReadingMetrics {
    var noteCount: Int { supplies.reduce(problems.count) { $0 + $1.notes.count } }

    func addMetrics(to builder: inout MetricFamilyBuilder) {
        builder.gauge(
            "vigil_power_supply_on_battery", "Whether the machine runs on battery (1) rather than external power.",
            powerSource == .noBattery ? nil : powerSource == .battery)
        for supply in supplies {
            let labels = ["supply": supply.name]
            var info = labels
            info["type"] = supply.kind.rawValue
            info["scope"] = supply.scope.rawValue
            info["status"] = supply.status?.rawValue ?? ""
            info["technology"] = supply.technology?.rawValue ?? ""
            info["capacity_level"] = supply.capacityLevel?.rawValue ?? ""
            builder.gauge("vigil_power_supply_info", "A power supply's kind and state, in labels; always 1.", 1, info)
            builder.gauge("vigil_power_supply_online", "Whether external power is connected.", supply.isOnline, labels)
            builder.gauge("vigil_power_supply_present", "Whether the battery is inserted.", supply.isPresent, labels)
            builder.gauge(
                "vigil_power_supply_capacity_ratio", "State of charge, 0 to 1 (capacity / 100).",
                supply.capacityPercent.map { Double($0) / 100 }, labels)
            addStore(supply.energy, "energy", "Stored energy", unit: "joules", factor: 3600, labels, &builder)
            addStore(supply.charge, "charge", "Stored charge", unit: "coulombs", factor: 3600, labels, &builder)
            builder.gauge(
                "vigil_power_supply_power_watts", "Power drawn or delivered, in watts.", supply.powerWatts, labels)
            builder.gauge(
                "vigil_power_supply_current_amperes", "Current, in amperes.", supply.currentAmperes, labels)
            builder.gauge("vigil_power_supply_voltage_volts", "Voltage, in volts.", supply.voltageVolts, labels)
            builder.gauge(
                "vigil_power_supply_temperature_celsius", "Battery temperature, in degrees Celsius.",
                supply.temperatureCelsius, labels)
            builder.gauge(
                "vigil_power_supply_charge_cycles", "Charge cycles the battery has been through.",
                supply.cycleCount.map(Double.init), labels)
            builder.gauge(
                "vigil_power_supply_time_to_empty_seconds", "Time until empty while discharging, in seconds.",
                supply.timeToEmptySeconds, labels)
            builder.gauge(
                "vigil_power_supply_time_to_full_seconds", "Time until full while charging, in seconds.",
                supply.timeToFullSeconds, labels)
        }
    }

    /// Now, full and design-full amounts of a store, converted from Wh or Ah (× 3600) to joules or coulombs.
    private func addStore(
        _ store: PowerSupply.Store?, _ what: String, _ help: String, unit: String, factor: Double,
        _ labels: [String: String], _ builder: inout MetricFamilyBuilder
    ) {
        guard let store else { return }
        builder.gauge(
            "vigil_power_supply_\(what)_\(unit)", "\(help) now, in \(unit).", store.now.map { $0 * factor }, labels)
        builder.gauge(
            "vigil_power_supply_\(what)_full_\(unit)", "\(help) when full today, in \(unit).",
            store.full.map { $0 * factor }, labels)
        builder.gauge(
            "vigil_power_supply_\(what)_full_design_\(unit)", "\(help) when full as designed, in \(unit).",
            store.fullDesign.map { $0 * factor }, labels)
    }
}
