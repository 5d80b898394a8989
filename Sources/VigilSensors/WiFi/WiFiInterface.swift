/// One wireless interface as nl80211 reports it, with the network it is connected to.
public struct WiFiInterface: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// The interface index (`ip link` shows it).
    public var index: Int
    /// The interface name, for example `wlan0` or `wlp2s0`.
    public var name: String
    /// What the interface is for.
    public var type: WiFiInterfaceType
    /// The interface's own hardware address, as colon-separated hex.
    public var address: String?
    /// The radio (`phy#N`) the interface belongs to.
    public var wiphy: Int?
    /// The channel's centre frequency in MHz, while the interface is on a channel.
    public var frequency: Int?
    /// The channel's width, while the interface is on a channel.
    public var channelWidth: WiFiChannelWidth?
    /// The network name the kernel reports for the interface while it is connected (or serves, for an access point).
    public var ssid: WiFiSSID?
    /// The links of a multi-link (Wi-Fi 7, MLO) connection, each with its own channel; empty otherwise.
    public var links: [WiFiLink]
    /// The network the interface is connected to, for a station; `nil` when it is not connected.
    public var connection: WiFiConnection?

    /// Creates an interface record.
    public init(
        index: Int, name: String, type: WiFiInterfaceType, address: String? = nil, wiphy: Int? = nil,
        frequency: Int? = nil, channelWidth: WiFiChannelWidth? = nil, ssid: WiFiSSID? = nil, links: [WiFiLink] = [],
        connection: WiFiConnection? = nil
    ) {
        self.index = index
        self.name = name
        self.type = type
        self.address = address
        self.wiphy = wiphy
        self.frequency = frequency
        self.channelWidth = channelWidth
        self.ssid = ssid
        self.links = links
        self.connection = connection
    }

    /// `wlan0 managed connected to "Home" (02:00:00:00:01:00) 5180 MHz -52 dBm`, or `… not connected`.
    public var description: String {
        var text = "\(name) \(type)"
        if let connection {
            text += " connected to \(connection)"
        } else if type == .station {
            text += " not connected"
        } else if let frequency {
            text += " \(frequency) MHz"
        }
        return text
    }
}

/// One link of a multi-link (MLO) interface or connection: its id, address and channel.
public struct WiFiLink: Hashable, Sendable, Encodable {
    /// The link's id (0–14).
    public var id: Int
    /// The link's address: the interface's own on an interface, the access point's (BSSID) on a connection.
    public var address: String?
    /// The link's channel frequency in MHz.
    public var frequency: Int?
    /// The link's channel width.
    public var channelWidth: WiFiChannelWidth?
    /// The access point's signal on this link, in dBm, from its last beacon or probe response.
    public var signal: Double?

    /// Creates a link record.
    public init(
        id: Int, address: String? = nil, frequency: Int? = nil, channelWidth: WiFiChannelWidth? = nil,
        signal: Double? = nil
    ) {
        self.id = id
        self.address = address
        self.frequency = frequency
        self.channelWidth = channelWidth
        self.signal = signal
    }
}
