/// One evdev device that reports switches: its node, its name, which switches it has and where they stand, or why
/// they cannot be read.
public struct SwitchDevice: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The evdev name under `class/input`, for example `event0`.
    public let node: String
    /// The device's name as the driver gives it, for example `Lid Switch`; bytes that are not UTF-8 are replaced.
    public let name: String
    /// The device node read, for example `/dev/input/event0`.
    public let path: String
    /// The switches the device has (its `capabilities/sw` bitmap), by code.
    public let supported: [SwitchKind]
    /// Where each supported switch stands, by code; empty when ``problem`` says why they cannot be read.
    public let states: [SwitchState]
    /// Why the switches cannot be read (the node is missing or not a device, permission is denied and which group
    /// grants it, the device went away), or nil.
    public let problem: String?

    /// Creates a device.
    public init(
        node: String, name: String, path: String, supported: [SwitchKind], states: [SwitchState] = [],
        problem: String? = nil
    ) {
        self.node = node
        self.name = name
        self.path = path
        self.supported = supported
        self.states = states
        self.problem = problem
    }

    /// The state of `kind` on this device, or nil when it lacks that switch or cannot be read.
    public func state(of kind: SwitchKind) -> SwitchState? {
        states.first { $0.kind == kind }
    }

    /// For example `Lid Switch (event0): lid closed`.
    public var description: String {
        let body = problem ?? (states.isEmpty ? "no switches" : states.map(\.description).joined(separator: ", "))
        return "\(name) (\(node)): \(body)"
    }
}
