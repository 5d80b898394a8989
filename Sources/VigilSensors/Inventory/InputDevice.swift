/// One input device (`<sys>/class/input/inputN`): a keyboard, a mouse, a touchpad, a lid switch, …
public struct InputDevice: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// What an input device is, coarsely, from the events it can send (the way udev's `input_id` tells them apart).
    public enum Kind: String, Sendable, Equatable, Encodable, CaseIterable, CustomStringConvertible {
        /// Sends the keys of a keyboard (Escape, digits, the first letters).
        case keyboard
        /// Sends relative motion with a left button, or absolute motion with one (a virtual machine's tablet).
        case mouse
        /// Sends absolute finger positions on a surface that is not the screen.
        case touchpad
        /// Sends touches on the screen (a direct-input device).
        case touchscreen
        /// Sends switch states (lid, tablet mode, dock, jacks) and is none of the above.
        case `switch`
        /// Anything else: power buttons, hotkeys, pens, joysticks, speakers.
        case other

        public var description: String { rawValue }
    }

    /// The class entry's name, for example `input3`.
    public let name: String
    /// The device's name (`name`), for example `AT Translated Set 2 keyboard`.
    public let label: String?
    /// Where the device is connected (`phys`), for example `isa0060/serio0/input0`; nil when empty.
    public let physicalPath: String?
    /// The bus type (`id/bustype`), a `BUS_*` number: 0x03 USB, 0x05 Bluetooth, 0x11 i8042, 0x18 I²C, 0x19 host.
    public let busType: Int?
    /// The vendor id (`id/vendor`).
    public let vendor: Int?
    /// The product id (`id/product`).
    public let product: Int?
    /// The handlers attached (`event3`, `mouse0`, `js0`), by name.
    public let handlers: [String]
    /// The evdev node (`/dev/input/event3`), when the `evdev` handler is attached.
    public let eventNode: String?
    /// What the device is, from its capabilities.
    public let kind: Kind

    /// Creates a device.
    public init(
        name: String, label: String?, physicalPath: String? = nil, busType: Int? = nil, vendor: Int? = nil,
        product: Int? = nil, handlers: [String] = [], eventNode: String? = nil, kind: Kind
    ) {
        self.name = name
        self.label = label
        self.physicalPath = physicalPath
        self.busType = busType
        self.vendor = vendor
        self.product = product
        self.handlers = handlers
        self.eventNode = eventNode
        self.kind = kind
    }

    /// The bus's name (`usb`, `bluetooth`, `i8042`, `i2c`, `host`, …), when the bus type is one the kernel names.
    public var busName: String? {
        guard let busType else { return nil }
        let names: [Int: String] = [
            0x01: "pci", 0x02: "isapnp", 0x03: "usb", 0x04: "hil", 0x05: "bluetooth", 0x06: "virtual", 0x10: "isa",
            0x11: "i8042", 0x12: "xtkbd", 0x13: "rs232", 0x14: "gameport", 0x15: "parport", 0x16: "amiga",
            0x17: "adb", 0x18: "i2c", 0x19: "host", 0x1A: "gsc", 0x1B: "atari", 0x1C: "spi", 0x1D: "rmi", 0x1E: "cec",
            0x1F: "intel-ishtp",
        ]
        return names[busType]
    }

    /// For example `input3 "AT Translated Set 2 keyboard" keyboard (i8042, event3)`.
    public var description: String {
        var text = name
        if let label { text += " \"\(label)\"" }
        text += " \(kind)"
        let details = [busName].compactMap { $0 } + handlers
        if !details.isEmpty { text += " (" + details.joined(separator: ", ") + ")" }
        return text
    }
}
