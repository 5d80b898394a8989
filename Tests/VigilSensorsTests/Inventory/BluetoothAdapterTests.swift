import Testing
import VigilTestSupport

@testable import VigilSensors

/// Bluetooth adapters from `class/bluetooth` and their rfkill switches, attached through the device links.
@Suite(.timeLimit(.minutes(10))) struct BluetoothAdapterTests {
    @Test func anAdapterWithItsOwnSwitch() throws {
        let machine = FakeMachine.empty()
        machine.addInventory()
        let found = try BluetoothAdapter.read(root: machine.sys.root)
        #expect(found.adapters.problems.isEmpty, "\(found.adapters.problems)")
        let adapter = try #require(found.adapters.devices.first)
        #expect(adapter.name == "hci0")
        #expect(adapter.parent?.driver == "btusb" && adapter.parent?.bus == "usb")
        #expect(
            adapter.radioSwitches == [
                RadioSwitch(
                    name: "rfkill0", label: "hci0", type: "bluetooth", softBlocked: false, hardBlocked: false, index: 0)
            ])
        #expect(adapter.isUnblocked == true)
        #expect(adapter.description == "hci0 (btusb, rfkill0 unblocked)")
        #expect(found.otherSwitches.isEmpty)
    }

    @Test func switchesOfOtherRadiosAndHardwareStayApartAndConnectionsAreNoAdapters() throws {
        let machine = FakeMachine.empty()
        machine.addInventory()
        let hci = "pci0000:00/0000:00:14.0/usb1/1-10/1-10:1.0"
        // A connection entry of hci0, a laptop's platform Bluetooth switch (soft-blocked), a switch of the
        // adapter's own hardware (hard-blocked), and a Wi-Fi switch.
        machine.sys.classDevice("bluetooth", "hci0:256", parent: hci)
        machine.sys.hardware("platform/thinkpad_acpi", driver: "thinkpad_acpi", bus: "platform")
        machine.sys.classDevice(
            "rfkill", "rfkill1", parent: "platform/thinkpad_acpi",
            ["name": "tpacpi_bluetooth_sw", "type": "bluetooth", "soft": "1", "hard": "0"])
        machine.sys.classDevice(
            "rfkill", "rfkill2", parent: hci, ["name": "hw", "type": "bluetooth", "soft": "0", "hard": "1"])
        machine.sys.classDevice("rfkill", "rfkill3", parent: nil, ["name": "phy0", "type": "wlan", "soft": "1"])
        let found = try BluetoothAdapter.read(root: machine.sys.root)
        #expect(found.adapters.devices.map(\.name) == ["hci0"])
        let adapter = try #require(found.adapters.devices.first)
        #expect(adapter.radioSwitches.map(\.name) == ["rfkill0", "rfkill2"])
        #expect(adapter.isUnblocked == false)
        #expect(found.otherSwitches.map(\.name) == ["rfkill1"])
        #expect(found.otherSwitches.first?.description == "rfkill1 soft-blocked")
    }

    @Test(
        arguments: [("1", "0", false), ("0", "1", false), ("x", "0", nil), ("0", "0", true)]
            as [(String, String, Bool?)])
    func switchStates(soft: String, hard: String, unblocked: Bool?) throws {
        let machine = FakeMachine.empty()
        machine.sys.hardware("usb/1-1:1.0", driver: "btusb", bus: "usb")
        let hci = machine.sys.classDevice("bluetooth", "hci1", parent: "usb/1-1:1.0")
        machine.sys.device(hci + "/rfkill4", ["name": "hci1", "type": "bluetooth", "soft": soft, "hard": hard])
        machine.sys.link(hci + "/rfkill4/device", to: "..")
        machine.sys.link("class/rfkill/rfkill4", to: "../../" + hci + "/rfkill4")
        let adapter = try #require(try BluetoothAdapter.read(root: machine.sys.root).adapters.devices.first)
        #expect(adapter.isUnblocked == unblocked)
    }

    @Test func anAdapterWithoutSwitchesHasNoBlockState() throws {
        let machine = FakeMachine.empty()
        machine.sys.classDevice("bluetooth", "hci0", parent: nil)
        let adapter = try #require(try BluetoothAdapter.read(root: machine.sys.root).adapters.devices.first)
        #expect(adapter.radioSwitches.isEmpty && adapter.isUnblocked == nil && adapter.parent == nil)
        #expect(adapter.description == "hci0")
    }
}
