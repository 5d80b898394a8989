/// The switches of the machine at one moment: every evdev device that reports switches (lid, tablet mode, dock,
/// jacks, …) with where each stands, and the input entries that could not be read.
public struct SwitchStates: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The devices with switches, by node number.
    public let devices: [SwitchDevice]
    /// Input entries that could not be read as devices (unreadable or malformed capabilities), each naming its path
    /// and what is wrong; they are left out of ``devices``.
    public let problems: [String]

    /// Creates a reading.
    public init(devices: [SwitchDevice], problems: [String] = []) {
        self.devices = devices
        self.problems = problems
    }

    /// Whether `kind` is set: true when a readable device reports it set, false when every readable device that has
    /// it reports it unset, nil when none has it (or none can be read).
    public func isOn(_ kind: SwitchKind) -> Bool? {
        let states = devices.compactMap { $0.state(of: kind) }
        guard !states.isEmpty else { return nil }
        return states.contains { $0.isOn }
    }

    /// Whether the lid is closed; nil on a machine without a lid switch.
    public var isLidClosed: Bool? { isOn(.lid) }

    /// Whether the machine is in tablet mode; nil on a machine without a tablet-mode switch.
    public var isTabletMode: Bool? { isOn(.tabletMode) }

    public var description: String {
        let lines = devices.map(\.description) + problems
        return lines.isEmpty ? "no switches" : lines.joined(separator: "; ")
    }
}
