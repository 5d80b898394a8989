/// The capability bitmaps of an input device (`capabilities/ev`, `key`, `rel`, `abs`, `sw` and `properties`), and
/// the coarse kind they make.
///
/// The kernel prints a bitmap as hexadecimal words of an `unsigned long` (64 bits here), the most significant first,
/// separated by spaces, leading zero words left out: `KEY_ESC`…`KEY_D` (bits 1–31) of a keyboard end its `key`
/// text with `… fffffffffffffffe`.
package struct InputCapabilities: Equatable {
    /// The event type bits (`EV_*`) and the code bits of each type the kind depends on.
    package var events: Bitmap
    package var keys: Bitmap
    package var relativeAxes: Bitmap
    package var absoluteAxes: Bitmap
    package var switches: Bitmap
    package var properties: Bitmap

    package init(
        events: Bitmap, keys: Bitmap = Bitmap(), relativeAxes: Bitmap = Bitmap(), absoluteAxes: Bitmap = Bitmap(),
        switches: Bitmap = Bitmap(), properties: Bitmap = Bitmap()
    ) {
        self.events = events
        self.keys = keys
        self.relativeAxes = relativeAxes
        self.absoluteAxes = absoluteAxes
        self.switches = switches
        self.properties = properties
    }

    /// A bitmap of up to ``maximumWords`` 64-bit words, word 0 the least significant.
    package struct Bitmap: Equatable {
        /// More words than any input bitmap has (`KEY_CNT` is 768 bits, 12 words).
        package static let maximumWords = 64

        package var words: [UInt64] = []

        /// The bitmap of a sysfs text such as `120013` or `1000000000007 ff9f207ac14057ff febeffdfffefffff
        /// fffffffffffffffe`.
        ///
        /// - Throws: ``SensorError/malformedValue(path:text:expected:)`` for a word that is not 1 to 16 hex digits,
        ///   or more than ``maximumWords`` words.
        package init(text: String, path: String) throws(SensorError) {
            let parts = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
            guard parts.count <= Self.maximumWords else {
                throw .malformedValue(path: path, text: text, expected: "at most \(Self.maximumWords) hex words")
            }
            for part in parts.reversed() {
                guard part.count <= 16, let word = UInt64(part, radix: 16) else {
                    throw .malformedValue(path: path, text: text, expected: "hex words of 64 bits")
                }
                words.append(word)
            }
        }

        package init(words: [UInt64] = []) { self.words = words }

        /// Whether bit `bit` is set.
        package func contains(_ bit: Int) -> Bool {
            let word = bit / 64
            return bit >= 0 && word < words.count && words[word] & (1 << UInt64(bit % 64)) != 0
        }

        /// Whether any bit is set.
        package var isEmpty: Bool { words.allSatisfy { $0 == 0 } }
    }

    /// The kernel's event types, codes and properties used below (`linux/input-event-codes.h`, stable UAPI).
    private enum Code {
        static let eventKey = 0x01, eventRelative = 0x02, eventAbsolute = 0x03, eventSwitch = 0x05
        static let relativeX = 0x00, relativeY = 0x01
        static let absoluteX = 0x00, absoluteY = 0x01, multitouchX = 0x35, multitouchY = 0x36
        static let buttonLeft = 0x110, buttonToolPen = 0x140, buttonToolFinger = 0x145, buttonTouch = 0x14A
        static let buttonStylus = 0x14B
        static let propertyDirect = 0x01
    }

    /// The coarse kind: pointers first (touchpad, touchscreen, mouse, from axes and buttons as udev's `input_id`
    /// decides), then a keyboard (keys 1–31: Escape, the digits and the first letters), then a switch (any `EV_SW`
    /// code), else other. A pen tablet or a joystick is other.
    package var kind: InputDevice.Kind {
        let absolute = events.contains(Code.eventAbsolute)
        let hasAbsolute =
            absolute
            && (absoluteAxes.contains(Code.absoluteX) && absoluteAxes.contains(Code.absoluteY)
                || absoluteAxes.contains(Code.multitouchX) && absoluteAxes.contains(Code.multitouchY))
        let keys = events.contains(Code.eventKey) ? self.keys : Bitmap()
        let direct = properties.contains(Code.propertyDirect)
        if hasAbsolute {
            if keys.contains(Code.buttonToolPen) || keys.contains(Code.buttonStylus) { return .other }
            if keys.contains(Code.buttonToolFinger) && !direct { return .touchpad }
            if keys.contains(Code.buttonLeft) && !direct { return .mouse }
            if keys.contains(Code.buttonTouch) || direct { return .touchscreen }
        }
        if events.contains(Code.eventRelative), relativeAxes.contains(Code.relativeX),
            relativeAxes.contains(Code.relativeY), keys.contains(Code.buttonLeft)
        {
            return .mouse
        }
        if let first = keys.words.first, first & 0xFFFF_FFFE == 0xFFFF_FFFE { return .keyboard }
        if events.contains(Code.eventSwitch), !switches.isEmpty { return .switch }
        return .other
    }
}
