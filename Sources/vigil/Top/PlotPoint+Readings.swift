import VigilSensors

// The typed extraction from each reading type to the numbers its rows plot.

extension SensorReading: PlottableReading where Value: Plottable {
    var plotPoints: [PlotPoint]? { value?.plotPoints }
}

extension CPUUsage: Plottable {
    var plotPoints: [PlotPoint] {
        [PlotPoint(key: "total", label: "cpu", value: total, text: PlotFormat.percent(total), scale: 0...1)]
            + cores.map { core in
                PlotPoint(
                    key: "cpu\(core.core)", label: "cpu\(core.core)", value: core.busy,
                    text: PlotFormat.percent(core.busy), scale: 0...1)
            }
    }
}

extension MemoryUsage: Plottable {
    var plotPoints: [PlotPoint] {
        let text = PlotFormat.percent(usedFraction) + " of " + PlotFormat.bytes(totalBytes)
        return [PlotPoint(key: "used", label: "memory", value: usedFraction, text: text, scale: 0...1)]
    }
}

extension PressureStall: Plottable {
    var plotPoints: [PlotPoint] {
        let text = PlotFormat.fixed(some.avg10, 2) + " % " + level.rawValue
        return [PlotPoint(key: "some", label: "mem pressure", value: some.avg10, text: text, scale: 0...100)]
    }
}

extension PowerSupplyReading: Plottable {
    var plotPoints: [PlotPoint] {
        batteries.compactMap { battery in
            guard let percent = battery.capacityPercent else { return nil }
            let status = battery.status.map { " " + $0.rawValue } ?? ""
            return PlotPoint(
                key: battery.name, label: "battery " + battery.name, value: Double(percent),
                text: "\(percent) %" + status, scale: 0...100)
        }
    }
}

extension ThermalReading: Plottable {
    var plotPoints: [PlotPoint] {
        zones.compactMap { zone in
            guard let celsius = zone.temperatureCelsius else { return nil }
            return PlotPoint(
                key: zone.name, label: "temp " + zone.type, value: celsius, text: PlotFormat.fixed(celsius) + " °C",
                scale: nil)
        }
    }
}

extension HwmonReading: Plottable {
    var plotPoints: [PlotPoint] {
        chips.flatMap { chip in
            chip.temperatures.map { channel in
                PlotPoint(
                    key: chip.chip + "/" + channel.id, label: chip.chip + " " + channel.label, value: channel.value,
                    text: PlotFormat.fixed(channel.value) + " °C", scale: nil)
            }
                + chip.fans.map { channel in
                    PlotPoint(
                        key: chip.chip + "/" + channel.id, label: chip.chip + " " + channel.label,
                        value: channel.value, text: PlotFormat.fixed(channel.value, 0) + " RPM", scale: nil)
                }
        }
    }
}

extension Backlight: Plottable {
    var plotPoints: [PlotPoint] {
        [PlotPoint(key: name, label: "backlight", value: fraction, text: PlotFormat.percent(fraction), scale: 0...1)]
    }
}

extension AmbientLight.Value: Plottable {
    var plotPoints: [PlotPoint] {
        [PlotPoint(key: "lux", label: "light", value: lux, text: PlotFormat.fixed(lux) + " lx", scale: nil)]
    }
}

extension Accelerometer.Value: Plottable {
    var plotPoints: [PlotPoint] {
        let magnitude = acceleration.magnitude
        return [
            PlotPoint(
                key: "magnitude", label: "accel |a|", value: magnitude, text: PlotFormat.fixed(magnitude, 2) + " m/s²",
                scale: nil)
        ]
    }
}

extension CompassHeading: Plottable {
    /// The true heading when a declination gives one, else the magnetic heading, on a fixed 0–360° scale.
    var plotPoints: [PlotPoint] {
        let (heading, north) = trueHeading.map { ($0, "true") } ?? (magneticHeading, "magnetic")
        let point = CompassHeading.point(heading)
        return [
            PlotPoint(
                key: "heading", label: "heading", value: heading,
                text: PlotFormat.fixed(heading) + "° " + point + " " + north, scale: 0...360)
        ]
    }
}

extension WiFiStatus: Plottable {
    /// Each connected interface's signal, from -90 dBm (unusable) to -30 dBm (excellent).
    var plotPoints: [PlotPoint] {
        interfaces.compactMap { interface in
            guard let connection = interface.connection, let signal = connection.currentSignal else { return nil }
            let ssid = connection.ssid.map { " " + $0.description } ?? ""
            return PlotPoint(
                key: interface.name, label: "wifi " + interface.name, value: signal,
                text: PlotFormat.fixed(signal, 0) + " dBm" + ssid, scale: -90...(-30))
        }
    }
}
