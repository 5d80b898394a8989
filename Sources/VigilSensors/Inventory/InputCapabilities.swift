/// The capability bitmaps of an input device (`capabilities/ev`, `key`, `rel`, `abs`, `sw` and `properties`), and
/// the coarse kind they make.
///
/// Each is a ``CapabilityBitmap``: `KEY_ESC`…`KEY_D` (bits 1–31) of a keyboard end its `key` text with
/// `… fffffffffffffffe`.
package struct InputCapabilities: Equatable {
    /// The event type bits (`EV_*`) and the code bits of each type the kind depends on.
    package var events: CapabilityBitmap
    package var keys: CapabilityBitmap
    package var relativeAxes: CapabilityBitmap
    package var absoluteAxes: CapabilityBitmap
    package var switches: CapabilityBitmap
    package var properties: CapabilityBitmap

    package init(
        events: CapabilityBitmap, keys: CapabilityBitmap = CapabilityBitmap(),
        relativeAxes: CapabilityBitmap = CapabilityBitmap(), absoluteAxes: CapabilityBitmap = CapabilityBitmap(),
        switches: CapabilityBitmap = CapabilityBitmap(), properties: CapabilityBitmap = CapabilityBitmap()
    ) {
        self.events = events
        self.keys = keys
        self.relativeAxes = relativeAxes
        self.absoluteAxes = absoluteAxes
        self.switches = switches
        self.properties = properties
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
        let keys = events.contains(Code.eventKey) ? self.keys : CapabilityBitmap()
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
