import VigilSensors

extension DisplayReading: ReadingMetrics {
    /// One `vigil_display_connected` per connector, and for a connector with an EDID an info metric naming the
    /// display (never its serial number: metrics are scraped and stored widely) and its physical size.
    func addMetrics(to builder: inout MetricFamilyBuilder) {
        for connector in connectors {
            let labels = ["connector": connector.name, "type": connector.type]
            let connected: Bool? =
                switch connector.status {
                case .connected: true
                case .disconnected: false
                case .unknown: nil
                }
            builder.gauge(
                "vigil_display_connected", "Whether a display is connected to the DRM connector (1) or not (0).",
                connected, labels)
            builder.gauge(
                "vigil_display_enabled", "Whether the DRM connector drives a display pipeline (1) or not (0).",
                connector.isEnabled, labels)
        }
        for connector in connectors {
            guard let edid = connector.edid else { continue }
            builder.gauge(
                "vigil_display_info", "The display on a DRM connector as its EDID names it; always 1.", 1.0,
                [
                    "connector": connector.name, "manufacturer": edid.manufacturer,
                    "product": Self.hex(edid.productCode), "name": edid.name ?? edid.texts.last ?? "",
                    "internal": connector.isInternal ? "true" : "false",
                ])
            guard edid.size.kind == .measured, edid.size.isPlausible, let width = edid.size.widthCentimetres,
                let height = edid.size.heightCentimetres
            else { continue }
            let labels = ["connector": connector.name]
            builder.gauge(
                "vigil_display_width_meters", "The display's physical width as its EDID states it, in meters.",
                Double(width) / 100, labels)
            builder.gauge(
                "vigil_display_height_meters", "The display's physical height as its EDID states it, in meters.",
                Double(height) / 100, labels)
        }
    }

    /// A product code as four upper-case hex digits, as PNP ids are written with it (`DEL` `415A`).
    private static func hex(_ code: Int) -> String {
        let digits = String(code, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
