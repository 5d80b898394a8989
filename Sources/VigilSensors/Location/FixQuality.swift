/// The quality of a fix as GGA field 6 gives it: how the position was found.
public enum FixQuality: Int, Sendable, Hashable, Encodable, CustomStringConvertible {
    /// No fix (0).
    case invalid = 0
    /// An autonomous satellite fix (1).
    case gps = 1
    /// A differential fix: SBAS or a DGPS station (2).
    case dgps = 2
    /// A PPS fix (3).
    case pps = 3
    /// Real-time kinematic, integer ambiguities fixed (4).
    case rtk = 4
    /// Real-time kinematic, float ambiguities (5).
    case floatRTK = 5
    /// Dead reckoning (6).
    case estimated = 6
    /// A position entered by hand (7).
    case manual = 7
    /// A simulator (8).
    case simulation = 8

    /// The name encoded and printed: `gps`, `dgps`, `rtk`, `float-rtk`, ….
    public var description: String {
        switch self {
        case .invalid: return "invalid"
        case .gps: return "gps"
        case .dgps: return "dgps"
        case .pps: return "pps"
        case .rtk: return "rtk"
        case .floatRTK: return "float-rtk"
        case .estimated: return "estimated"
        case .manual: return "manual"
        case .simulation: return "simulation"
        }
    }

    /// Encodes as ``description``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// Whether a receiver has a fix, and of how many dimensions.
public enum FixMode: String, Sendable, Hashable, Encodable, CustomStringConvertible {
    /// The receiver is open but nothing was decoded from it yet.
    case waiting
    /// The receiver reported, without a fix.
    case none
    /// A fix whose dimension the receiver did not say (no GSA).
    case fix
    /// A fix without altitude (GSA mode 2).
    case twoD = "2d"
    /// A fix with altitude (GSA mode 3).
    case threeD = "3d"

    /// Whether there is a position.
    public var hasFix: Bool { self == .fix || self == .twoD || self == .threeD }

    /// The raw value: `waiting`, `none`, `fix`, `2d` or `3d`.
    public var description: String { rawValue }
}
