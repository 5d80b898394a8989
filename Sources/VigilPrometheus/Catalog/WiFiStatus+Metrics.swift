import VigilSensors

extension WiFiStatus: ReadingMetrics {
    func addMetrics(to builder: inout MetricFamilyBuilder) {
        for interface in interfaces {
            let labels = ["interface": interface.name]
            let connection = interface.connection
            var info = labels
            info["type"] = "\(interface.type)"
            info["address"] = interface.address ?? ""
            info["ssid"] = connection?.ssid?.description ?? interface.ssid?.description ?? ""
            info["bssid"] = connection?.bssid ?? ""
            builder.gauge(
                "vigil_wifi_info", "A wireless interface's type, address and the network it is connected to; always 1.",
                1, info)
            builder.gauge(
                "vigil_wifi_connected", "Whether the wireless interface is connected to an access point.",
                connection != nil, labels)
            builder.gauge(
                "vigil_wifi_frequency_megahertz", "The channel frequency of the interface or its access point, in MHz.",
                (connection?.frequency ?? interface.frequency).map(Double.init), labels)
            builder.gauge(
                "vigil_wifi_channel_width_megahertz", "The interface's channel width, in MHz.",
                interface.channelWidth?.megahertz.map(Double.init), labels)
            guard let connection else { continue }
            var network = labels
            network["ssid"] = connection.ssid?.description ?? ""
            builder.gauge(
                "vigil_wifi_signal_dbm",
                "The access point's signal: the station's last frame, else its last beacon, in dBm.",
                connection.currentSignal, network)
            let station = connection.station
            builder.gauge(
                "vigil_wifi_signal_average_dbm", "The average signal of the station's frames, in dBm.",
                station?.averageSignal.map(Double.init), network)
            builder.gauge(
                "vigil_wifi_transmit_bitrate_bits_per_second", "The bitrate of the last transmitted frame.",
                station?.transmitBitrate.map { $0 * 1_000_000 }, network)
            builder.gauge(
                "vigil_wifi_receive_bitrate_bits_per_second", "The bitrate of the last received frame.",
                station?.receiveBitrate.map { $0 * 1_000_000 }, network)
            builder.gauge(
                "vigil_wifi_connected_seconds", "How long the interface has been connected to its access point.",
                station?.connectedSeconds.map(Double.init), network)
        }
    }
}
