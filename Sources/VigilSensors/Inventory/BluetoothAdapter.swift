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
