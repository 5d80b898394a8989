/// One rfkill switch (`<sys>/class/rfkill/rfkillN`): a radio's software and hardware kill state.
public struct RadioSwitch: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The class entry's name, for example `rfkill0`.
    public let name: String
    /// The switch's own name (`name`), for example `hci0` or `tpacpi_bluetooth_sw`.
    public let label: String?
    /// The radio type (`type`): `bluetooth`, `wlan`, `wwan`, …
    public let type: String?
    /// Whether software blocks the radio (`soft`: `rfkill block`, airplane mode); nil when unreadable.
    public let softBlocked: Bool?
    /// Whether a hardware switch blocks the radio (`hard`); nil when unreadable.
    public let hardBlocked: Bool?

    /// Creates a switch.
    public init(name: String, label: String?, type: String?, softBlocked: Bool?, hardBlocked: Bool?) {
        self.name = name
        self.label = label
        self.type = type
        self.softBlocked = softBlocked
        self.hardBlocked = hardBlocked
    }

    /// Whether the radio may transmit: neither blocked; nil when either state is unknown.
    public var isUnblocked: Bool? {
        guard let softBlocked, let hardBlocked else { return nil }
        return !softBlocked && !hardBlocked
    }

    /// For example `rfkill0 unblocked` or `rfkill1 soft-blocked, hard-blocked`.
    public var description: String {
        var states: [String] = []
        if softBlocked == true { states.append("soft-blocked") }
        if hardBlocked == true { states.append("hard-blocked") }
        if states.isEmpty { states.append(isUnblocked == nil ? "state unknown" : "unblocked") }
        return "\(name) " + states.joined(separator: ", ")
    }
}

/// One Bluetooth adapter (`<sys>/class/bluetooth/hciN`) and the rfkill switches of its radio.
public struct BluetoothAdapter: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The adapter's name, for example `hci0`.
    public let name: String
    /// The hardware the adapter belongs to (a USB interface bound to `btusb`, a UART, …).
    public let parent: ParentDevice?
    /// The rfkill switches of this adapter: its own, and one of the same hardware (a platform switch beside it).
    public let radioSwitches: [RadioSwitch]

    /// Creates an adapter.
    public init(name: String, parent: ParentDevice?, radioSwitches: [RadioSwitch]) {
        self.name = name
        self.parent = parent
        self.radioSwitches = radioSwitches
    }

    /// Whether the adapter's radio may transmit: false when a switch blocks it, nil when it has none or a state is
    /// unknown.
    public var isUnblocked: Bool? {
        if radioSwitches.contains(where: { $0.isUnblocked == false }) { return false }
        if radioSwitches.isEmpty || radioSwitches.contains(where: { $0.isUnblocked == nil }) { return nil }
        return true
    }

    /// For example `hci0 (btusb, rfkill0 unblocked)`.
    public var description: String {
        let details = [parent?.driver].compactMap { $0 } + radioSwitches.map(\.description)
        return details.isEmpty ? name : "\(name) (\(details.joined(separator: ", ")))"
    }
}
