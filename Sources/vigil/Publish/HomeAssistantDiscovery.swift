import Foundation
import VigilSensors

/// Home Assistant MQTT discovery: for a numeric source, the retained config messages that make Home Assistant list
/// its sensors (`homeassistant/sensor/<node>/<object>/config`) without configuration; for `reach`, connectivity
/// binary sensors (`homeassistant/binary_sensor/…`): each target reachable, and its port answering.
///
/// The sensors are derived from the source's first reading that has a value, so each thermal zone, battery and
/// mount point becomes its own sensor, picked out of the JSON envelope by a `value_template`.
enum HomeAssistantDiscovery {
    /// One Home Assistant sensor read out of a source's envelope.
    struct Sensor: Equatable {
        let objectID: String
        let name: String
        let template: String
        let unit: String
        let deviceClass: String?
        /// `measurement` for a value that goes up and down, `total_increasing` for a counter that only resets.
        var stateClass = "measurement"
        /// `sensor`, or `binary_sensor` for one whose template renders `ON` or `OFF` (and no unit).
        var component = "sensor"
    }

    /// The sensors of `source` found in `envelope` (a JSON object with a value); empty for a source that is not
    /// numeric.
    static func sensors(source: String, envelope: [String: Any]) -> [Sensor] {
        switch source {
        case "cpu":
            return [
                Sensor(
                    objectID: "cpu", name: "CPU use", template: value("value_json.total", percent: true), unit: "%",
                    deviceClass: nil
                )
            ]
        case "memory":
            return [
                Sensor(
                    objectID: "memory", name: "Memory used", template: value("value_json.usedFraction", percent: true),
                    unit: "%",
                    deviceClass: nil)
            ]
        case "storage":
            return items(envelope, "volumes", key: "mountPoint", value: "usedFraction", percent: true) {
                mount, template in
                Sensor(
                    objectID: "storage_" + (mount == "/" ? "root" : sanitized(mount)), name: "Storage used \(mount)",
                    template: template, unit: "%", deviceClass: nil)
            }
        case "thermal":
            return items(envelope, "zones", key: "name", value: "temperatureCelsius") { zone, template in
                Sensor(
                    objectID: "thermal_" + sanitized(zone), name: "Temperature \(zone)", template: template,
                    unit: "°C", deviceClass: "temperature")
            }
        case "battery", "power":
            return items(envelope, "supplies", key: "name", value: "capacityPercent") { supply, template in
                Sensor(
                    objectID: "battery_" + sanitized(supply), name: "Battery \(supply)", template: template, unit: "%",
                    deviceClass: "battery")
            }
        case "light":
            return [
                Sensor(
                    objectID: "light", name: "Ambient light", template: value("value_json.lux"), unit: "lx",
                    deviceClass: "illuminance")
            ]
        case "barometer":
            return [
                Sensor(
                    objectID: "barometer", name: "Air pressure", template: value("value_json.kilopascals"), unit: "kPa",
                    deviceClass: "atmospheric_pressure")
            ]
        case "compass":
            // A true heading comes with a declination (--declination); without one the envelope has none.
            let trueHeading =
                envelope["trueHeading"] == nil
                ? [] : [degrees("compass_true", "Compass true heading", "value_json.trueHeading")]
            return [degrees("compass", "Compass heading", "value_json.magneticHeading")] + trueHeading
        case "attitude":
            return ["yaw", "pitch", "roll"].map { angle in
                degrees("attitude_" + angle, "Attitude " + angle, "value_json." + angle)
            }
        case "wifi":
            // The signal of the link to the access point (station statistics, polled while vigil publishes), per
            // interface that is connected.
            return items(envelope, "interfaces", key: "name", value: "connection.station.signal") {
                interface, template in
                Sensor(
                    objectID: "wifi_signal_" + sanitized(interface), name: "Wi-Fi signal \(interface)",
                    template: template, unit: "dBm", deviceClass: "signal_strength")
            }
        case "reach":
            return reachability(envelope)
        case "backlight":
            return [
                Sensor(
                    objectID: "backlight", name: "Backlight", template: value("value_json.fraction", percent: true),
                    unit: "%",
                    deviceClass: nil)
            ]
        case "network":
            return trafficSensors(envelope)
        default:
            return []
        }
    }

    /// Two counters per interface but loopback that has them: the bytes received and sent, which only grow until
    /// the interface is re-created (`total_increasing`, so Home Assistant takes a drop for a reset).
    private static func trafficSensors(_ envelope: [String: Any]) -> [Sensor] {
        let interfaces = (envelope["interfaces"] as? [[String: Any]])?.filter { $0["kind"] as? String != "loopback" }
        return [("receive", "received"), ("transmit", "sent")].flatMap { direction, verb in
            items(
                ["interfaces": interfaces ?? []], "interfaces", key: "name", value: "traffic.\(direction).bytes"
            ) { interface, template in
                Sensor(
                    objectID: "network_\(sanitized(interface))_\(direction)_bytes",
                    name: "Network \(interface) \(verb)", template: template, unit: "B", deviceClass: "data_size",
                    stateClass: "total_increasing")
            }
        }
    }

    /// A connectivity binary sensor per target (reachable), and per target with a port (its TCP probe answered).
    private static func reachability(_ envelope: [String: Any]) -> [Sensor] {
        guard let targets = envelope["targets"] as? [[String: Any]] else { return [] }
        return targets.flatMap { target -> [Sensor] in
            // A quote would end the template's string literal: such a target gets no sensor.
            guard let name = target["target"] as? String, !name.contains("'"), !name.contains("\\") else { return [] }
            let select =
                "{% set item = value_json.targets | selectattr('target', 'eq', '\(name)') | first "
                + "if value_json.status == 'ok' and value_json.targets is defined else none %}"
            let known = "item is defined and item is not none"
            var sensors = [
                Sensor(
                    objectID: "reach_" + sanitized(name), name: "Reachable \(name)",
                    template: select + "{{ ('ON' if item.reachable else 'OFF') if \(known) else None }}", unit: "",
                    deviceClass: "connectivity", component: "binary_sensor")
            ]
            if (try? ReachTarget(parsing: name))?.port != nil {
                // HOST:PORT or [V6]:PORT: the probe's answer; `probing` and no probe at all are unknown.
                sensors.append(
                    Sensor(
                        objectID: "reach_tcp_" + sanitized(name), name: "TCP answers \(name)",
                        template: select
                            + "{{ ('ON' if item.tcp == 'answered' else 'OFF') if \(known) and item.tcp is defined "
                            + "and item.tcp != 'probing' else None }}", unit: "", deviceClass: "connectivity",
                        component: "binary_sensor"))
            }
            return sensors
        }
    }

    /// A sensor of an angle in degrees at `path` of the envelope.
    private static func degrees(_ objectID: String, _ name: String, _ path: String) -> Sensor {
        Sensor(objectID: objectID, name: name, template: value(path), unit: "°", deviceClass: nil)
    }

    /// The config message of `sensor`: its topic and its retained JSON payload.
    static func config(
        _ sensor: Sensor, host: String, prefix: String, source: String
    ) -> (topic: String, payload: [UInt8]) {
        let node = "vigil_" + sanitized(host)
        var object: [String: Any] = [
            "name": sensor.name,
            "state_topic": prefix + "/" + source,
            "value_template": sensor.template,
            "unique_id": node + "_" + sensor.objectID,
            // Available while vigil is online and the source's latest reading has a value: a pending or unavailable
            // reading marks the sensor unavailable instead of feeding its template a payload without the value.
            "availability": [
                ["topic": prefix + "/status"],
                [
                    "topic": prefix + "/" + source,
                    "value_template": "{{ 'online' if value_json.status == 'ok' else 'offline' }}",
                ],
            ],
            "availability_mode": "all",
            "device": ["identifiers": [node], "name": host, "manufacturer": "Vigil"],
        ]
        if sensor.component == "binary_sensor" {
            object["payload_on"] = "ON"
            object["payload_off"] = "OFF"
        } else {
            object["unit_of_measurement"] = sensor.unit
            object["state_class"] = sensor.stateClass
        }
        if let deviceClass = sensor.deviceClass { object["device_class"] = deviceClass }
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data()
        return ("homeassistant/\(sensor.component)/\(node)/\(sensor.objectID)/config", Array(data))
    }

    /// A name as Home Assistant's node and object ids allow it: letters, digits, `_` and `-`.
    static func sanitized(_ name: String) -> String {
        let allowed = name.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-") ? Character(scalar) : "_"
        }
        let text = String(allowed)
        return text.isEmpty ? "_" : text
    }

    /// The template of a number at `path` of the envelope (scaled to percent when asked): the number for an `ok`
    /// envelope that has it, else `None`, which Home Assistant shows as unknown. So it renders every payload vigil
    /// publishes (pending and unavailable ones too), where a bare `value_json.total` raised `UndefinedError`.
    ///
    /// - Parameter having: What must hold before `path` is looked at: an `ok` envelope by default.
    private static func value(
        _ path: String, percent: Bool = false, having: String = "value_json.status == 'ok'"
    ) -> String {
        let shown = percent ? "(\(path) * 100) | round(1)" : path
        return "{{ \(shown) if \(having) and \(path) is defined and \(path) is not none else None }}"
    }

    /// One sensor per element of the array `field` that has a `value` (a dotted path for a nested one), each
    /// template picking its element out by `key` (an element gone from a later reading renders `None`, as a reading
    /// without a value does); each object on the way to a nested value is checked before the next step is taken.
    private static func items(
        _ envelope: [String: Any], _ field: String, key: String, value: String, percent: Bool = false,
        _ make: (String, String) -> Sensor
    ) -> [Sensor] {
        guard let elements = envelope[field] as? [[String: Any]] else { return [] }
        return elements.compactMap { element in
            // A quote would end the template's string literal; such a name gets no sensor, nor does one that is not
            // UTF-8 (its bytes are an array in the envelope, no string a template could match).
            guard let name = element[key] as? String, !name.contains("'"), !name.contains("\\") else { return nil }
            let found = value.split(separator: ".").reduce(element as Any?) { ($0 as? [String: Any])?[String($1)] }
            if found == nil || found is NSNull { return nil }
            let select =
                "{% set item = value_json.\(field) | selectattr('\(key)', 'eq', '\(name)') | first "
                + "if value_json.status == 'ok' and value_json.\(field) is defined else none %}"
            var having = "item is defined and item is not none"
            let steps = value.split(separator: ".").dropLast()
            for depth in steps.indices {
                let prefix = "item." + steps[...depth].joined(separator: ".")
                having += " and \(prefix) is defined and \(prefix) is not none"
            }
            return make(name, select + Self.value("item.\(value)", percent: percent, having: having))
        }
    }
}
