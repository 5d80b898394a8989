/// One rfkill switch (`<sys>/class/rfkill/rfkillN`): a radio's software and hardware kill state.
///
/// The same switch is reported by the `radios` source (``RadioMonitor``) and, for Bluetooth, by the inventory's
/// ``BluetoothAdapter``.
public struct RadioSwitch: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The class entry's name, for example `rfkill0`.
    public let name: String
    /// The switch's own name (`name`), for example `hci0`, `phy0` or `tpacpi_bluetooth_sw`.
    public let label: String?
    /// The radio type (`type`): `wlan`, `bluetooth`, `ultrawideband`, `wimax`, `wwan`, `gps`, `fm` or `nfc`.
    public let type: String?
    /// Whether software blocks the radio (`soft`: `rfkill block`, airplane mode); nil when unreadable.
    public let softBlocked: Bool?
    /// Whether a hardware switch blocks the radio (`hard`); nil when unreadable.
    public let hardBlocked: Bool?
    /// The kernel's number of the switch (`index`), the `idx` of its `/dev/rfkill` events; nil when unreadable.
    public let index: UInt32?
    /// Why the hardware blocks the radio (`hard_block_reasons`, Linux 5.11 on); nil where the kernel does not say.
    public let hardBlockReasons: HardBlockReasons?

    /// Creates a switch.
    public init(
        name: String, label: String?, type: String?, softBlocked: Bool?, hardBlocked: Bool?, index: UInt32? = nil,
        hardBlockReasons: HardBlockReasons? = nil
    ) {
        self.name = name
        self.label = label
        self.type = type
        self.softBlocked = softBlocked
        self.hardBlocked = hardBlocked
        self.index = index
        self.hardBlockReasons = hardBlockReasons
    }

    /// Whether the radio may transmit: neither blocked; nil when either state is unknown.
    public var isUnblocked: Bool? {
        guard let softBlocked, let hardBlocked else { return nil }
        return !softBlocked && !hardBlocked
    }

    /// For example `rfkill0 unblocked` or `rfkill1 soft-blocked, hard-blocked (signal)`.
    public var description: String {
        var states: [String] = []
        if softBlocked == true { states.append("soft-blocked") }
        if hardBlocked == true {
            let reasons = hardBlockReasons.flatMap { $0.isEmpty ? nil : " (\($0))" } ?? ""
            states.append("hard-blocked" + reasons)
        }
        if states.isEmpty { states.append(isUnblocked == nil ? "state unknown" : "unblocked") }
        return "\(name) " + states.joined(separator: ", ")
    }
}

extension RadioSwitch {
    /// Why the hardware blocks a radio: the bits of the kernel's `hard_block_reasons` (`RFKILL_HARD_BLOCK_*`).
    ///
    /// Encodes as a list of names (`signal`, `not-owner`), with a bit the kernel has added since as `bit N`.
    public struct HardBlockReasons: OptionSet, Sendable, Hashable, Encodable, CustomStringConvertible {
        public let rawValue: UInt8

        /// Creates reasons from the kernel's bits; unknown bits are kept.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// The hardware kill signal is asserted (`RFKILL_HARD_BLOCK_SIGNAL`): a switch or key.
        public static let signal = HardBlockReasons(rawValue: 1 << 0)
        /// Another component of the platform owns the device (`RFKILL_HARD_BLOCK_NOT_OWNER`), for example a
        /// modem's firmware sharing the Wi-Fi.
        public static let notOwner = HardBlockReasons(rawValue: 1 << 1)

        /// The reasons' names, known bits first: `signal`, `not-owner`, then `bit N` for the others.
        public var names: [String] {
            (0..<8).compactMap { bit -> String? in
                guard rawValue & (1 << bit) != 0 else { return nil }
                switch bit {
                case 0: return "signal"
                case 1: return "not-owner"
                default: return "bit \(bit)"
                }
            }
        }

        /// For example `signal, not-owner`, or `none`.
        public var description: String { isEmpty ? "none" : names.joined(separator: ", ") }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(names)
        }
    }
}
