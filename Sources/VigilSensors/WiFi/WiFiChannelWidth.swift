/// The width of the channel an interface or link uses (`enum nl80211_chan_width`).
public struct WiFiChannelWidth: RawRepresentable, Hashable, Sendable, Encodable, CustomStringConvertible {
    /// The kernel's number (`NL80211_CHAN_WIDTH_*`).
    public let rawValue: UInt32

    /// Wraps the kernel's number; a number this version does not know is kept and shown as such.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    private static let widths: [UInt32: (megahertz: Int, name: String)] = [
        0: (20, "20 MHz (no HT)"), 1: (20, "20 MHz"), 2: (40, "40 MHz"), 3: (80, "80 MHz"), 4: (160, "80+80 MHz"),
        5: (160, "160 MHz"), 6: (5, "5 MHz"), 7: (10, "10 MHz"), 8: (1, "1 MHz"), 9: (2, "2 MHz"), 10: (4, "4 MHz"),
        11: (8, "8 MHz"), 12: (16, "16 MHz"), 13: (320, "320 MHz"),
    ]

    /// The width in MHz (80+80 counts 160), or `nil` for a number this version does not know.
    public var megahertz: Int? { Self.widths[rawValue]?.megahertz }

    /// The width as `iw` prints it (`80 MHz`, `80+80 MHz`, `20 MHz (no HT)`), or `width N` when unknown.
    public var description: String { Self.widths[rawValue]?.name ?? "width \(rawValue)" }

    /// Encodes the width as its ``description``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
