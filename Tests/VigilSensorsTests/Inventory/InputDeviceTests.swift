import Testing
import VigilTestSupport

@testable import VigilSensors

/// Input devices read from fake trees: identity, handlers and the coarse kind from the capability bitmaps.
///
/// The switch devices are libinput's test devices as `Tests/Fixtures/input/README.md` records them (names,
/// ids, event codes; MIT, see `NOTICE`): their bitmaps below are those codes written the way sysfs prints them.
@Suite(.timeLimit(.minutes(10))) struct InputDeviceTests {
    /// One device's attributes: its name, ids and capability texts.
    struct Case: Sendable, CustomStringConvertible {
        var label: String
        var ids: (bus: String, vendor: String, product: String)
        var capabilities: [String: String]
        var kind: InputDevice.Kind

        var description: String { label }
    }

    /// libinput's switch devices (README: names, `input_id`, event codes) and the pointer and keyboard kinds.
    static let cases: [Case] = [
        // LITEST_LID_SWITCH: EV_SW / SW_LID only; EVIOCGBIT(0) = 0x21.
        Case(
            label: "Lid Switch", ids: ("0019", "0000", "0005"), capabilities: ["ev": "21", "sw": "1"],
            kind: .switch),
        // LITEST_TABLET_MODE_UNRELIABLE: BTN_LEFT, BTN_RIGHT (bits 0x110, 0x111: word 4) and SW_TABLET_MODE; no
        // motion, so the buttons make no mouse.
        Case(
            label: "Unreliable Tablet Mode Switch device", ids: ("0018", "0123", "0456"),
            capabilities: ["ev": "23", "key": "30000 0 0 0 0", "sw": "2"], kind: .switch),
        // gpio-keys: SW_LID, SW_TABLET_MODE, KEY_VOLUMEDOWN (114), KEY_VOLUMEUP (115), KEY_POWER (116).
        Case(
            label: "gpio-keys", ids: ("0019", "0001", "0001"),
            capabilities: ["ev": "23", "key": "1c000000000000 0", "sw": "3"], kind: .switch),
        // HP WMI hotkeys: SW_TABLET_MODE and SW_DOCK (bits 1 and 5) beside keys.
        Case(
            label: "HP WMI hotkeys", ids: ("0019", "0000", "0000"),
            capabilities: ["ev": "23", "key": "1c000000000000 0", "sw": "22"], kind: .switch),
        // Keypad Slide Switch: SW_KEYPAD_SLIDE (0x0a) and SW_CAMERA_LENS_COVER (0x09).
        Case(
            label: "Keypad Slide Switch", ids: ("0019", "0000", "0005"), capabilities: ["ev": "21", "sw": "600"],
            kind: .switch),
        // An AT keyboard: KEY_ESC through KEY_D and more (bits 1–63 of word 0).
        Case(
            label: "AT Translated Set 2 keyboard", ids: ("0011", "0001", "0001"),
            capabilities: ["ev": "120013", "key": "402000000 3803078f800d001 feffffdfffefffff fffffffffffffffe"],
            kind: .keyboard),
        // A USB mouse: REL_X, REL_Y, REL_WHEEL and BTN_LEFT/RIGHT/MIDDLE.
        Case(
            label: "Logitech USB Optical Mouse", ids: ("0003", "046d", "c077"),
            capabilities: ["ev": "17", "key": "70000 0 0 0 0", "rel": "903"], kind: .mouse),
        // A Synaptics touchpad: ABS_X/Y, BTN_TOOL_FINGER, BTN_TOUCH, not direct (INPUT_PROP_POINTER, BUTTONPAD).
        Case(
            label: "SynPS/2 Synaptics TouchPad", ids: ("0011", "0002", "0007"),
            capabilities: [
                "ev": "b", "key": "e520 30000 0 0 0 0", "abs": "660800011000003", "properties": "5",
            ], kind: .touchpad),
        // A touchscreen: multitouch positions and BTN_TOUCH, INPUT_PROP_DIRECT.
        Case(
            label: "ELAN Touchscreen", ids: ("0003", "04f3", "2494"),
            capabilities: ["ev": "b", "key": "400 0 0 0 0 0", "abs": "3273800000000003", "properties": "2"],
            kind: .touchscreen),
        // QEMU's USB tablet: absolute X/Y with a left button, a virtual machine's mouse.
        Case(
            label: "QEMU QEMU USB Tablet", ids: ("0003", "0627", "0001"),
            capabilities: ["ev": "1f", "key": "70000 0 0 0 0", "rel": "900", "abs": "3"], kind: .mouse),
        // A pen: BTN_TOOL_PEN and BTN_STYLUS with absolute axes: neither touchpad nor touchscreen.
        Case(
            label: "Wacom Pen", ids: ("0003", "056a", "5146"),
            capabilities: ["ev": "b", "key": "1c03 0 0 0 0 0", "abs": "3000003", "properties": "2"], kind: .other),
        // A power button: KEY_POWER only.
        Case(
            label: "Power Button", ids: ("0019", "0000", "0001"), capabilities: ["ev": "3", "key": "10000000000000 0"],
            kind: .other),
    ]

    @Test(arguments: cases) func kindFromCapabilities(_ device: Case) throws {
        let machine = FakeMachine.empty()
        var attributes = [
            "name": device.label, "id/bustype": device.ids.bus, "id/vendor": device.ids.vendor,
            "id/product": device.ids.product,
        ]
        for (name, text) in device.capabilities {
            attributes[name == "properties" ? name : "capabilities/" + name] = text
        }
        machine.addInputDevice("input7", parent: "platform/test", handlers: ["event7"], attributes)
        let read = try InputDevice.read(root: machine.sys.root)
        #expect(read.problems.isEmpty, "\(read.problems)")
        let found = try #require(read.devices.first)
        #expect(found.kind == device.kind)
        #expect(found.label == device.label)
        #expect(found.busType == Int(device.ids.bus, radix: 16))
        #expect(found.vendor == Int(device.ids.vendor, radix: 16))
        #expect(found.product == Int(device.ids.product, radix: 16))
        #expect(found.eventNode == "/dev/input/event7")
    }

    @Test func theLidSwitchOfTheREADMEReadsAsAHostSwitch() throws {
        let machine = FakeMachine.empty()
        machine.addInventory()
        let read = try InputDevice.read(root: machine.sys.root)
        let lid = try #require(read.devices.first { $0.name == "input0" })
        #expect(lid.label == "Lid Switch")
        #expect(lid.busName == "host")
        #expect(lid.busType == 0x19 && lid.vendor == 0 && lid.product == 5)
        #expect(lid.kind == .switch)
        #expect(lid.description == "input0 \"Lid Switch\" switch (host, event0)")
        #expect(read.devices.map(\.name) == ["input0", "input3", "input5"])
        let touchpad = try #require(read.devices.last)
        #expect(touchpad.handlers == ["event5", "mouse0"])
        #expect(touchpad.physicalPath == "isa0060/serio1/input0")
    }

    /// A word that is not hex, more words than any bitmap has, a word longer than 64 bits.
    static let malformedBitmaps = ["12 zz", (1...65).map { String($0) }.joined(separator: " "), "11111111111111111"]

    @Test(arguments: malformedBitmaps)
    func aMalformedBitmapHidesOnlyItsDevice(_ text: String) throws {
        let machine = FakeMachine.empty()
        machine.addInputDevice("input1", parent: "platform/a", handlers: [], ["name": "bad", "capabilities/key": text])
        machine.addInputDevice("input2", parent: "platform/b", handlers: [], ["name": "good", "capabilities/ev": "3"])
        let read = try InputDevice.read(root: machine.sys.root)
        #expect(read.devices.map(\.name) == ["input2"])
        #expect(read.problems.count == 1)
        #expect(read.problems.first?.contains("input1/capabilities/key") == true, "\(read.problems)")
    }

    @Test func handlerEntriesBesideTheDevicesAreNotDevices() throws {
        let machine = FakeMachine.empty()
        machine.addInventory()
        machine.sys.makeDirectory("class/input/mice")
        let names = try InputDevice.read(root: machine.sys.root).devices.map(\.name)
        #expect(!names.contains("event3") && !names.contains("mice") && !names.contains("mouse0"))
    }
}
