import Foundation

/// Home Assistant MQTT discovery: for a numeric source, the retained config messages that make Home Assistant list
/// its sensors (`homeassistant/sensor/<node>/<object>/config`) without configuration.
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
    }

    /// The sensors of `source` found in `envelope` (a JSON object with a value); empty for a source that is not
    /// numeric.
    static func sensors(source: String, envelope: [String: Any]) -> [Sensor] {
        switch source {
        case "cpu":
            return [
                Sensor(
                    objectID: "cpu", name: "CPU use", template: percent("value_json.total"), unit: "%", deviceClass: nil
                )
            ]
        case "memory":
            return [
                Sensor(
                    objectID: "memory", name: "Memory used", template: percent("value_json.usedFraction"), unit: "%",
                    deviceClass: nil)
            ]
        case "storage":
            return items(envelope, "volumes", key: "mountPoint") { mount, selected in
                Sensor(
                    objectID: "storage_" + (mount == "/" ? "root" : sanitized(mount)), name: "Storage used \(mount)",
                    template: percent(selected + ".usedFraction"), unit: "%", deviceClass: nil)
            }
        case "thermal":
            return items(envelope, "zones", key: "name", having: "temperatureCelsius") { zone, selected in
                Sensor(
                    objectID: "thermal_" + sanitized(zone), name: "Temperature \(zone)",
                    template: "{{ \(selected).temperatureCelsius }}", unit: "°C", deviceClass: "temperature")
            }
        case "battery", "power":
            return items(envelope, "supplies", key: "name", having: "capacityPercent") { supply, selected in
                Sensor(
                    objectID: "battery_" + sanitized(supply), name: "Battery \(supply)",
                    template: "{{ \(selected).capacityPercent }}", unit: "%", deviceClass: "battery")
            }
        case "light":
            return [
                Sensor(
                    objectID: "light", name: "Ambient light", template: "{{ value_json.lux }}", unit: "lx",
                    deviceClass: "illuminance")
            ]
        case "barometer":
            return [
                Sensor(
                    objectID: "barometer", name: "Air pressure", template: "{{ value_json.kilopascals }}", unit: "kPa",
                    deviceClass: "atmospheric_pressure")
            ]
        case "backlight":
            return [
                Sensor(
                    objectID: "backlight", name: "Backlight", template: percent("value_json.fraction"), unit: "%",
                    deviceClass: nil)
            ]
        default:
            return []
        }
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
            "unit_of_measurement": sensor.unit,
            "unique_id": node + "_" + sensor.objectID,
            "availability_topic": prefix + "/status",
            "payload_available": "online",
            "payload_not_available": "offline",
            "state_class": "measurement",
            "device": ["identifiers": [node], "name": host, "manufacturer": "Vigil"],
        ]
        if let deviceClass = sensor.deviceClass { object["device_class"] = deviceClass }
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data()
        return ("homeassistant/sensor/\(node)/\(sensor.objectID)/config", Array(data))
    }

    /// A name as Home Assistant's node and object ids allow it: letters, digits, `_` and `-`.
    static func sanitized(_ name: String) -> String {
        let allowed = name.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-") ? Character(scalar) : "_"
        }
        let text = String(allowed)
        return text.isEmpty ? "_" : text
    }

    private static func percent(_ expression: String) -> String { "{{ (\(expression) * 100) | round(1) }}" }

    /// One sensor per element of the array `field` that has `having`, selected by its `key` in the template.
    private static func items(
        _ envelope: [String: Any], _ field: String, key: String, having: String? = nil,
        _ make: (String, String) -> Sensor
    ) -> [Sensor] {
        guard let elements = envelope[field] as? [[String: Any]] else { return [] }
        return elements.compactMap { element in
            // A quote would end the template's string literal; such a name gets no sensor.
            guard let name = element[key] as? String, !name.contains("'"), !name.contains("\\") else { return nil }
            if let having, element[having] == nil || element[having] is NSNull { return nil }
            let selected = "(value_json.\(field) | selectattr('\(key)', 'eq', '\(name)') | first)"
            return make(name, selected)
        }
    }
}
