import FoundationEssentials
import Glibc
import Testing
import VigilTestSupport

@testable import VigilSensors

/// The whole inventory of a fake laptop, its line and JSON, and hostile trees: one bad entry or class hides only
/// itself, a gone root is no reading.
@Suite(.timeLimit(.minutes(10))) struct DeviceInventoryTests {
    static func read(_ machine: FakeMachine) throws -> DeviceInventory {
        try DeviceInventory.read(sysfsRoot: machine.sys.root, procfsRoot: machine.proc.root, query: CameraTests.uvc)
    }

    @Test func readsEveryKindOfALaptop() throws {
        let machine = FakeMachine.empty()
        machine.addInventory()
        let inventory = try Self.read(machine)
        #expect(inventory.problems.isEmpty, "\(inventory.problems)")
        #expect(DeviceInventory.Kind.allCases.map { inventory.count($0) } == [1, 1, 1, 1, 3])
        #expect(
            inventory.description
                == "cameras: \"Integrated Camera: Integrated C\" (video0 capture, video1 metadata); "
                + "sound cards: card0 PCH (HDA Intel PCH); Bluetooth: hci0 (btusb, rfkill0 unblocked); "
                + "modems: modem (qmi_wwan): wwp0s20f0u3i4, /dev/cdc-wdm0; input: input0 \"Lid Switch\" switch "
                + "(host, event0), input3 \"AT Translated Set 2 keyboard\" keyboard (i8042, event3), input5 "
                + "\"SynPS/2 Synaptics TouchPad\" touchpad (i8042, event5, mouse0)")
    }

    @Test func anEmptyMachineHasAnEmptyInventory() throws {
        let inventory = try Self.read(FakeMachine.empty())
        #expect(inventory == DeviceInventory())
        #expect(inventory.description == "cameras: none; sound cards: none; Bluetooth: none; modems: none; input: none")
    }

    @Test func aGoneRootIsNoReading() throws {
        let machine = FakeMachine.empty()
        #expect(throws: SensorError.notFound(path: machine.sys.root + "/gone")) {
            try DeviceInventory.read(
                sysfsRoot: machine.sys.root + "/gone", procfsRoot: machine.proc.root, query: CameraTests.uvc)
        }
    }

    @Test func hostileEntriesHideOnlyThemselves() throws {
        let machine = FakeMachine.empty()
        machine.addInventory()
        // A FIFO where a video node's directory should be, a link loop for a sound card, a dangling input device.
        #expect(mkfifo(machine.sys.root + "/class/video4linux/video7", 0o644) == 0)
        machine.sys.link("class/sound/card5", to: "card5")
        machine.sys.link("class/input/input9", to: "../../devices/gone/input9")
        // Attributes that are not files: a FIFO name, /dev/zero capabilities, a directory id.
        let keyboard = "devices/platform/i8042/serio0/input/input3"
        machine.sys.remove(keyboard + "/name")
        #expect(mkfifo(machine.sys.root + "/" + keyboard + "/name", 0o644) == 0)
        machine.sys.remove(keyboard + "/capabilities/ev")
        machine.sys.link(keyboard + "/capabilities/ev", to: "/dev/zero")
        machine.sys.remove("devices/pci0000:00/0000:00:1f.3/sound/card0/id")
        machine.sys.makeDirectory("devices/pci0000:00/0000:00:1f.3/sound/card0/id")
        // A class that is a file altogether.
        machine.sys.remove("class/usbmisc")
        machine.sys.write("class/usbmisc", "not a directory\n")
        let inventory = try Self.read(machine)
        #expect(inventory.cameras.flatMap(\.nodes).map(\.name) == ["video0", "video1"])
        #expect(inventory.soundCards.map(\.number) == [0])
        #expect(inventory.soundCards.first?.id == "PCH", "procfs still names it")
        #expect(inventory.inputDevices.map(\.name) == ["input0", "input3", "input5"])
        let keyboardDevice = try #require(inventory.inputDevices.first { $0.name == "input3" })
        #expect(keyboardDevice.label == nil && keyboardDevice.kind == .other)
        #expect(inventory.modems.flatMap(\.networkInterfaces) == ["wwp0s20f0u3i4"])
        #expect(inventory.modems.flatMap(\.controlNodes).isEmpty)
        #expect(inventory.problems.count == 3, "\(inventory.problems)")
        for part in ["video7", "card5", "usbmisc"] {
            #expect(inventory.problems.contains { $0.contains(part) }, "\(part): \(inventory.problems)")
        }
    }

    @Test func namesThatAreNotUTF8AreReadEscaped() throws {
        let machine = FakeMachine.empty()
        machine.sys.makeDirectory("class/net")
        let name = Array("wwan".utf8) + [0xFF, 0x31]
        let directory = BytePathFiles.path(machine.sys.root + "/class/net", name)
        try #require(BytePathFiles.makeDirectory(directory))
        let uevent = BytePath(bytes: directory.bytes + Array("/uevent".utf8))
        defer {
            BytePathFiles.remove(uevent)
            BytePathFiles.removeDirectory(directory)
        }
        try #require(BytePathFiles.write(uevent, "DEVTYPE=wwan\n"))
        machine.addInputDevice("input2", parent: "platform/x", handlers: [], ["capabilities/ev": "3"])
        // A name in Latin-1: "Kbé".
        try #require(
            BytePathFiles.write(
                BytePath(machine.sys.root + "/devices/platform/x/input/input2/name"), bytes: [0x4B, 0x62, 0xE9, 0x0A]))
        let inventory = try Self.read(machine)
        #expect(inventory.modems.flatMap(\.networkInterfaces) == ["wwan\\3771"])
        #expect(inventory.inputDevices.first?.label == "Kb\u{FFFD}")
        #expect(inventory.problems.isEmpty, "\(inventory.problems)")
    }

    @Test func encodesEveryKind() throws {
        let machine = FakeMachine.empty()
        machine.addInventory()
        let json = String(decoding: try JSONEncoder().encode(try Self.read(machine)), as: UTF8.self)
        for key in [
            #""cameras""#, #""role":"videoCapture""#, #""soundCards""#, #""bluetoothAdapters""#, #""radioSwitches""#,
            #""modems""#, #""controlNodes""#, #""inputDevices""#, #""kind":"touchpad""#,
        ] {
            #expect(json.contains(key), "\(key) in \(json)")
        }
    }
}
