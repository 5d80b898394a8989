/// One cellular modem: the WWAN ports, network interfaces and `cdc-wdm` control nodes of one piece of hardware.
///
/// A USB modem shows its network interface (`wwp0s20f0u6i4`, `DEVTYPE=wwan`) and a `cdc-wdm` node for QMI or MBIM
/// on interfaces of one USB device; a PCIe modem shows a `wwanN` device with its ports (`wwan0mbim0`, `wwan0at0`)
/// and network interfaces. Pieces are grouped by that hardware: the USB device above an interface, the device a
/// `wwanN` device belongs to.
public struct CellularModem: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// One WWAN port (`<sys>/class/wwan/wwan0at0`): a control channel to the modem.
    public struct Port: Sendable, Equatable, Encodable, CustomStringConvertible {
        /// The port's name, for example `wwan0mbim0`.
        public let name: String
        /// The protocol the port speaks (`type`): `AT`, `MBIM`, `QMI`, `QCDM`, `FIREHOSE`, …; nil when the kernel
        /// does not say (before Linux 5.19).
        public let type: String?
        /// The device node, for example `/dev/wwan0mbim0`.
        public let node: String

        /// Creates a port.
        public init(name: String, type: String?, node: String) {
            self.name = name
            self.type = type
            self.node = node
        }

        /// For example `wwan0mbim0 MBIM`.
        public var description: String { type.map { "\(name) \($0)" } ?? name }
    }

    /// The hardware (a USB device, a PCI function); nil for pieces without a parent, each then a modem of its own.
    public let parent: ParentDevice?
    /// The `wwanN` devices of the modem, by name.
    public let wwanDevices: [String]
    /// The WWAN ports, by name.
    public let ports: [Port]
    /// The network interfaces with `DEVTYPE=wwan`, by name.
    public let networkInterfaces: [String]
    /// The `cdc-wdm` control nodes (QMI or MBIM over USB), as device nodes (`/dev/cdc-wdm0`).
    public let controlNodes: [String]
    /// The drivers of the modem's functions (`qmi_wwan`, `cdc_mbim`, `mhi-pci-generic`), sorted.
    public let drivers: [String]

    /// Creates a modem.
    public init(
        parent: ParentDevice?, wwanDevices: [String] = [], ports: [Port] = [], networkInterfaces: [String] = [],
        controlNodes: [String] = [], drivers: [String] = []
    ) {
        self.parent = parent
        self.wwanDevices = wwanDevices
        self.ports = ports
        self.networkInterfaces = networkInterfaces
        self.controlNodes = controlNodes
        self.drivers = drivers
    }

    /// For example `modem (qmi_wwan): wwp0s20f0u6i4, /dev/cdc-wdm0`.
    public var description: String {
        let pieces = wwanDevices + ports.map(\.description) + networkInterfaces + controlNodes
        let drivers = drivers.isEmpty ? "" : " (\(drivers.joined(separator: ", ")))"
        return "modem\(drivers): " + pieces.joined(separator: ", ")
    }
}
