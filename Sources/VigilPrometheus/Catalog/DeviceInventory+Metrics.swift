import VigilSensors

extension DeviceInventory: ReadingMetrics {
    /// `vigil_inventory_devices` per kind (0 included, so a camera unplugged shows as a drop, not a gap), and an info
    /// metric per device naming it. No serial number is read or exported: metrics are scraped and stored widely.
    func addMetrics(to builder: inout MetricFamilyBuilder) {
        for kind in Kind.allCases {
            builder.gauge(
                "vigil_inventory_devices",
                "Devices of the machine by kind: cameras that capture, sound cards, Bluetooth adapters, modems, input.",
                Double(count(kind)), ["kind": kind.rawValue])
        }
        for camera in cameras {
            for node in camera.nodes {
                builder.gauge(
                    "vigil_inventory_video_node_info", "A video4linux node, its camera and what it does; always 1.",
                    1.0,
                    [
                        "node": node.name, "camera": camera.name, "role": Self.label(node.role),
                        "driver": node.driver ?? camera.parent?.driver ?? "",
                    ])
            }
        }
        for card in soundCards {
            builder.gauge(
                "vigil_inventory_sound_card_info", "An ALSA sound card; always 1.", 1.0,
                [
                    "card": String(card.number), "id": card.id ?? "", "driver": card.driver ?? "",
                    "name": card.shortName ?? "",
                ])
        }
        for adapter in bluetoothAdapters {
            let labels = ["adapter": adapter.name]
            builder.gauge(
                "vigil_inventory_bluetooth_adapter_info", "A Bluetooth adapter; always 1.", 1.0,
                ["adapter": adapter.name, "driver": adapter.parent?.driver ?? "", "bus": adapter.parent?.bus ?? ""])
            builder.gauge(
                "vigil_inventory_bluetooth_unblocked",
                "Whether no rfkill switch blocks the Bluetooth adapter's radio (1) or one does (0).",
                adapter.isUnblocked, labels)
        }
        for modem in modems {
            builder.gauge(
                "vigil_inventory_modem_info", "A cellular modem and its network interfaces and ports; always 1.", 1.0,
                [
                    "device": modem.parent?.path ?? "", "drivers": modem.drivers.joined(separator: ","),
                    "network_interfaces": modem.networkInterfaces.joined(separator: ","),
                    "ports": modem.ports.map(\.name).joined(separator: ","),
                ])
        }
        for device in inputDevices {
            builder.gauge(
                "vigil_inventory_input_info", "An input device and its coarse kind; always 1.", 1.0,
                [
                    "device": device.name, "name": device.label ?? "", "kind": device.kind.rawValue,
                    "bus": device.busName ?? "", "vendor": device.vendor.map(Self.hex) ?? "",
                    "product": device.product.map(Self.hex) ?? "",
                ])
        }
    }

    /// A role as a label value: `capture`, `metadata`, `output`, `memory_to_memory`, `other`, `unknown`.
    private static func label(_ role: VideoNode.Role) -> String {
        switch role {
        case .videoCapture: "capture"
        case .metadataCapture: "metadata"
        case .videoOutput: "output"
        case .memoryToMemory: "memory_to_memory"
        case .other: "other"
        case .unknown: "unknown"
        }
    }

    /// An id as four lower-case hex digits, as `lsusb` and sysfs write them (`046d`).
    private static func hex(_ id: Int) -> String {
        let digits = String(id, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
