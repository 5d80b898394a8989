import Testing
import VigilTestSupport

@testable import VigilSensors

/// Cellular modems: WWAN devices and ports, `DEVTYPE=wwan` network interfaces and `cdc-wdm` nodes, grouped by the
/// hardware they belong to.
@Suite(.timeLimit(.minutes(10))) struct CellularModemTests {
    @Test func aUSBModemsInterfaceAndControlNodeAreOneModem() throws {
        let machine = FakeMachine.empty()
        machine.addInventory()
        let read = try CellularModem.read(root: machine.sys.root)
        #expect(read.problems.isEmpty, "\(read.problems)")
        #expect(read.devices.count == 1)
        let modem = try #require(read.devices.first)
        #expect(
            modem.parent == ParentDevice(path: "/devices/pci0000:00/0000:00:14.0/usb2/2-3", driver: "usb", bus: "usb"))
        #expect(modem.networkInterfaces == ["wwp0s20f0u3i4"])
        #expect(modem.controlNodes == ["/dev/cdc-wdm0"])
        #expect(modem.drivers == ["qmi_wwan"])
        #expect(modem.description == "modem (qmi_wwan): wwp0s20f0u3i4, /dev/cdc-wdm0")
    }

    /// A PCIe (MHI) modem: a `wwan0` device with an MBIM and an AT port, and a network interface below the WWAN
    /// device, all of the PCI function.
    @Test func aPCIeModemsWWANDevicePortsAndInterfaceAreOneModem() throws {
        let machine = FakeMachine.empty()
        let pci = "pci0000:00/0000:00:1c.0/0000:01:00.0"
        machine.sys.hardware(pci, driver: "mhi-pci-generic", bus: "pci")
        let wwan = machine.sys.classDevice("wwan", "wwan0", parent: pci)
        let device = String(wwan.dropFirst("devices/".count))
        machine.sys.classDevice("wwan", "wwan0mbim0", parent: device, ["type": "MBIM"])
        machine.sys.classDevice("wwan", "wwan0at0", parent: device, ["type": "AT"])
        machine.sys.classDevice("net", "wwan0", parent: device, ["uevent": "DEVTYPE=wwan\nINTERFACE=wwan0"])
        machine.sys.classDevice("net", "eth0", parent: pci, ["uevent": "INTERFACE=eth0"])
        let read = try CellularModem.read(root: machine.sys.root)
        #expect(read.problems.isEmpty, "\(read.problems)")
        let modem = try #require(read.devices.first)
        #expect(read.devices.count == 1)
        #expect(modem.parent?.path == "/devices/" + pci && modem.parent?.driver == "mhi-pci-generic")
        #expect(modem.wwanDevices == ["wwan0"])
        #expect(
            modem.ports == [
                CellularModem.Port(name: "wwan0at0", type: "AT", node: "/dev/wwan0at0"),
                CellularModem.Port(name: "wwan0mbim0", type: "MBIM", node: "/dev/wwan0mbim0"),
            ])
        #expect(modem.networkInterfaces == ["wwan0"])
    }

    @Test func piecesWithoutHardwareAreModemsOfTheirOwn() throws {
        let machine = FakeMachine.empty()
        machine.sys.classDevice("net", "wwan9", parent: nil, ["uevent": "DEVTYPE=wwan"])
        machine.sys.classDevice("usbmisc", "cdc-wdm3", parent: nil)
        machine.sys.classDevice("usbmisc", "hiddev0", parent: nil)
        let read = try CellularModem.read(root: machine.sys.root)
        #expect(read.devices.count == 2)
        #expect(read.devices.flatMap(\.networkInterfaces) == ["wwan9"])
        #expect(read.devices.flatMap(\.controlNodes) == ["/dev/cdc-wdm3"])
    }

    @Test func noModemClassesIsNoModem() throws {
        let machine = FakeMachine.empty()
        let read = try CellularModem.read(root: machine.sys.root)
        #expect(read.devices.isEmpty && read.problems.isEmpty)
    }
}
