/// Which switch an input device reports: its `SW_*` code from `linux/input-event-codes.h`, with a name and the words
/// for its two positions.
///
/// The kernel documents every switch by what its set position means ("set = lid shut", "set = inserted");
/// ``SwitchState/isOn`` is that set position, and ``onWord`` and ``offWord`` say it in words. A code this library does
/// not know (a kernel newer than it) is kept by number and named `switch_0xNN`.
public struct SwitchKind: Hashable, Sendable, Comparable, Encodable, CustomStringConvertible {
    /// The `SW_*` code.
    public let code: Int

    /// A switch by its `SW_*` code.
    public init(code: Int) { self.code = code }

    /// `SW_LID`: set when the lid is shut.
    public static let lid = SwitchKind(code: 0x00)
    /// `SW_TABLET_MODE`: set in tablet mode (a convertible folded over or its keyboard detached).
    public static let tabletMode = SwitchKind(code: 0x01)
    /// `SW_HEADPHONE_INSERT`: set when headphones are plugged in.
    public static let headphoneInsert = SwitchKind(code: 0x02)
    /// `SW_RFKILL_ALL`: the radio master switch, set when radios are enabled.
    public static let rfkillAll = SwitchKind(code: 0x03)
    /// `SW_MICROPHONE_INSERT`: set when a microphone is plugged in.
    public static let microphoneInsert = SwitchKind(code: 0x04)
    /// `SW_DOCK`: set when plugged into a dock.
    public static let dock = SwitchKind(code: 0x05)
    /// `SW_LINEOUT_INSERT`: set when a line-out is plugged in.
    public static let lineoutInsert = SwitchKind(code: 0x06)
    /// `SW_JACK_PHYSICAL_INSERT`: set when the jack's mechanical switch is closed (something is in it).
    public static let jackPhysicalInsert = SwitchKind(code: 0x07)
    /// `SW_VIDEOOUT_INSERT`: set when a video-out is plugged in.
    public static let videooutInsert = SwitchKind(code: 0x08)
    /// `SW_CAMERA_LENS_COVER`: set when the lens is covered.
    public static let cameraLensCover = SwitchKind(code: 0x09)
    /// `SW_KEYPAD_SLIDE`: set when the keypad is slid out.
    public static let keypadSlide = SwitchKind(code: 0x0a)
    /// `SW_FRONT_PROXIMITY`: set when the front proximity sensor is active.
    public static let frontProximity = SwitchKind(code: 0x0b)
    /// `SW_ROTATE_LOCK`: set when rotation is locked.
    public static let rotateLock = SwitchKind(code: 0x0c)
    /// `SW_LINEIN_INSERT`: set when a line-in is plugged in.
    public static let lineinInsert = SwitchKind(code: 0x0d)
    /// `SW_MUTE_DEVICE`: set when the device is disabled (a privacy switch).
    public static let muteDevice = SwitchKind(code: 0x0e)
    /// `SW_PEN_INSERTED`: set when the pen is in its slot.
    public static let penInserted = SwitchKind(code: 0x0f)
    /// `SW_MACHINE_COVER`: set when the machine's cover is closed.
    public static let machineCover = SwitchKind(code: 0x10)
    /// `SW_USB_INSERT`: set when a USB audio device is connected.
    public static let usbInsert = SwitchKind(code: 0x11)

    /// Name, set word, unset word; indexed by code.
    private static let known: [(name: String, on: String, off: String)] = [
        ("lid", "closed", "open"),
        ("tablet_mode", "on", "off"),
        ("headphone_insert", "inserted", "removed"),
        ("rfkill_all", "radios enabled", "radios disabled"),
        ("microphone_insert", "inserted", "removed"),
        ("dock", "docked", "undocked"),
        ("lineout_insert", "inserted", "removed"),
        ("jack_physical_insert", "inserted", "removed"),
        ("videoout_insert", "inserted", "removed"),
        ("camera_lens_cover", "covered", "uncovered"),
        ("keypad_slide", "out", "in"),
        ("front_proximity", "near", "clear"),
        ("rotate_lock", "locked", "unlocked"),
        ("linein_insert", "inserted", "removed"),
        ("mute_device", "muted", "unmuted"),
        ("pen_inserted", "inserted", "removed"),
        ("machine_cover", "closed", "open"),
        ("usb_insert", "connected", "disconnected"),
    ]

    /// The highest code a switch can have: the bitmaps Vigil reads hold 64 switches, far above the kernel's `SW_MAX`.
    static let maximumCode = 63

    private var entry: (name: String, on: String, off: String)? {
        Self.known.indices.contains(code) ? Self.known[code] : nil
    }

    /// The `SW_*` name in lower case without the prefix, for example `lid` or `tablet_mode`; `switch_0x12` for a code
    /// this library does not know.
    public var name: String {
        if let entry { return entry.name }
        let hex = String(code, radix: 16)
        return "switch_0x" + (hex.count < 2 ? "0" + hex : hex)
    }

    /// The set position in words: `closed` for the lid, `inserted` for a jack, `on` for one this library does not
    /// know.
    public var onWord: String { entry?.on ?? "on" }

    /// The unset position in words: `open` for the lid, `removed` for a jack, `off` for one this library does not know.
    public var offWord: String { entry?.off ?? "off" }

    public var description: String { name }

    public static func < (lhs: SwitchKind, rhs: SwitchKind) -> Bool { lhs.code < rhs.code }

    /// Encodes as ``name``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
