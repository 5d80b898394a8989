/// The network a station is connected to: the access point (BSS) it is associated with, and the link's statistics.
public struct WiFiConnection: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// The access point's address (BSSID); for a multi-link connection, the first link's.
    public var bssid: String
    /// The access point's multi-link (MLD) address, for a multi-link connection.
    public var mldAddress: String?
    /// The network's name, from the access point's beacon or probe response.
    public var ssid: WiFiSSID?
    /// The access point's channel frequency in MHz.
    public var frequency: Int?
    /// The access point's signal in dBm, from its last beacon or probe response (scan results).
    public var signal: Double?
    /// The per-link access points of a multi-link connection; empty otherwise.
    public var links: [WiFiLink]
    /// The station statistics of the link to the access point (signal, bitrates, connected time), read only while
    /// someone subscribes to the source; `nil` until read.
    public var station: WiFiStationStatistics?

    /// Creates a connection record.
    public init(
        bssid: String, mldAddress: String? = nil, ssid: WiFiSSID? = nil, frequency: Int? = nil, signal: Double? = nil,
        links: [WiFiLink] = [], station: WiFiStationStatistics? = nil
    ) {
        self.bssid = bssid
        self.mldAddress = mldAddress
        self.ssid = ssid
        self.frequency = frequency
        self.signal = signal
        self.links = links
        self.station = station
    }

    /// The signal the connection is best described by: the station's live one, else the scan's.
    public var currentSignal: Double? { station?.signal.map(Double.init) ?? signal }

    /// `"Home" (02:00:00:00:01:00) 5180 MHz -52 dBm`.
    public var description: String {
        var text = ssid.map { "\"\($0)\" (\(bssid))" } ?? bssid
        if let frequency { text += " \(frequency) MHz" }
        if let currentSignal { text += " \(Int(currentSignal.rounded())) dBm" }
        if let bitrate = station?.transmitBitrate { text += " tx \(bitrate) Mbit/s" }
        return text
    }
}

/// What the kernel counts for the link to one station (`NL80211_CMD_GET_STATION`): for a client, the access point.
public struct WiFiStationStatistics: Hashable, Sendable, Encodable {
    /// The signal of the last received frame, in dBm.
    public var signal: Int?
    /// The average signal, in dBm.
    public var averageSignal: Int?
    /// The bitrate of the last transmitted frame, in Mbit/s.
    public var transmitBitrate: Double?
    /// The bitrate of the last received frame, in Mbit/s.
    public var receiveBitrate: Double?
    /// How long the station has been connected, in seconds.
    public var connectedSeconds: Int?

    /// Creates a statistics record.
    public init(
        signal: Int? = nil, averageSignal: Int? = nil, transmitBitrate: Double? = nil, receiveBitrate: Double? = nil,
        connectedSeconds: Int? = nil
    ) {
        self.signal = signal
        self.averageSignal = averageSignal
        self.transmitBitrate = transmitBitrate
        self.receiveBitrate = receiveBitrate
        self.connectedSeconds = connectedSeconds
    }
}
