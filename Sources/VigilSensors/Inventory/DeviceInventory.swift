/// The devices of the machine at one moment: cameras, sound cards, Bluetooth adapters, cellular modems and input
/// devices, and the entries that could not be read.
public struct DeviceInventory: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The kinds of device the inventory counts.
    public enum Kind: String, Sendable, Equatable, Encodable, CaseIterable, CustomStringConvertible {
        /// Cameras (see ``DeviceInventory/count(_:)``).
        case camera
        /// Sound cards.
        case soundCard = "sound_card"
        /// Bluetooth adapters.
        case bluetoothAdapter = "bluetooth_adapter"
        /// Cellular modems.
        case modem
        /// Input devices.
        case input

        public var description: String { rawValue }
    }

    /// The cameras (and other video4linux devices), each with its nodes.
    public let cameras: [Camera]
    /// The sound cards, by number.
    public let soundCards: [SoundCard]
    /// The Bluetooth adapters, each with its rfkill switches.
    public let bluetoothAdapters: [BluetoothAdapter]
    /// The Bluetooth rfkill switches that belong to no adapter (a laptop's platform switch, an adapter that is off).
    public let otherBluetoothSwitches: [RadioSwitch]
    /// The cellular modems.
    public let modems: [CellularModem]
    /// The input devices, by number.
    public let inputDevices: [InputDevice]
    /// Entries that could not be read, each naming its path and what is wrong; they are left out of the lists.
    public let problems: [String]

    /// Creates an inventory.
    public init(
        cameras: [Camera] = [], soundCards: [SoundCard] = [], bluetoothAdapters: [BluetoothAdapter] = [],
        otherBluetoothSwitches: [RadioSwitch] = [], modems: [CellularModem] = [], inputDevices: [InputDevice] = [],
        problems: [String] = []
    ) {
        self.cameras = cameras
        self.soundCards = soundCards
        self.bluetoothAdapters = bluetoothAdapters
        self.otherBluetoothSwitches = otherBluetoothSwitches
        self.modems = modems
        self.inputDevices = inputDevices
        self.problems = problems
    }

    /// How many devices of `kind` there are; for cameras, those that capture video or could not be asked (not a
    /// codec or metadata-only device).
    public func count(_ kind: Kind) -> Int {
        switch kind {
        case .camera: cameras.filter { $0.capturesVideo != false }.count
        case .soundCard: soundCards.count
        case .bluetoothAdapter: bluetoothAdapters.count
        case .modem: modems.count
        case .input: inputDevices.count
        }
    }

    /// One part a kind: `cameras: "Integrated Camera" (video0 capture, video1 metadata); sound cards: card0 PCH (HDA
    /// Intel PCH); …`, then the problems.
    public var description: String {
        func part(_ noun: String, _ items: [some CustomStringConvertible]) -> String {
            "\(noun): " + (items.isEmpty ? "none" : items.map(\.description).joined(separator: ", "))
        }
        var parts = [
            part("cameras", cameras), part("sound cards", soundCards),
            part("Bluetooth", bluetoothAdapters.map(\.description) + otherBluetoothSwitches.map(\.description)),
            part("modems", modems), part("input", inputDevices),
        ]
        if !problems.isEmpty { parts.append(part("problems", problems)) }
        return parts.joined(separator: "; ")
    }
}
