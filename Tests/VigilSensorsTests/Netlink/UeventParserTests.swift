import Testing
import VigilSensors

@Suite(.timeLimit(.minutes(10))) struct UeventParserTests {
    private let kernel = NetlinkSender(port: 0, userID: 0)

    private static func datagram(_ fields: [String]) -> [UInt8] {
        fields.flatMap { Array($0.utf8) + [0] }
    }

    private static let vethAdd = datagram([
        "add@/devices/virtual/net/veth0", "ACTION=add", "DEVPATH=/devices/virtual/net/veth0", "SUBSYSTEM=net",
        "INTERFACE=veth0", "IFINDEX=5", "SEQNUM=4711",
    ])

    @Test func decodesKernelMessage() throws {
        let event = try #require(UeventParser.parse(Self.vethAdd, from: kernel))
        #expect(event.action == .add && event.subsystem == "net" && event.devpath == "/devices/virtual/net/veth0")
        #expect(event.seqnum == 4711 && event.devtype == nil && event.properties["INTERFACE"] == "veth0")
        #expect(event.description == "add net /devices/virtual/net/veth0 (IFINDEX=5 INTERFACE=veth0) #4711")
    }

    @Test func decodesDevname() throws {
        let bytes = Self.datagram([
            "add@/devices/platform/sensors/iio:device0", "ACTION=add", "DEVPATH=/devices/platform/sensors/iio:device0",
            "SUBSYSTEM=iio", "DEVTYPE=iio_device", "DEVNAME=iio:device0", "MAJOR=241", "MINOR=0", "SEQNUM=9",
        ])
        let event = try #require(UeventParser.parse(bytes))
        #expect(event.devname == "iio:device0" && event.devtype == "iio_device" && event.subsystem == "iio")
        #expect(event.description.contains("/dev/iio:device0") && !event.description.contains("DEVNAME="))
    }

    @Test func decodesDevtypeAndDriver() throws {
        let bytes = Self.datagram([
            "bind@/devices/pci0000:00/0000:00:14.0/usb1/1-1", "ACTION=bind",
            "DEVPATH=/devices/pci0000:00/0000:00:14.0/usb1/1-1", "SUBSYSTEM=usb", "DEVTYPE=usb_device",
            "DRIVER=usb", "SEQNUM=1",
        ])
        let event = try #require(UeventParser.parse(bytes))
        #expect(event.action == .bind && event.devtype == "usb_device" && event.driver == "usb")
    }

    @Test func rejectsUdevFormatAndOtherSenders() {
        let udev = Array("libudev".utf8) + [0, 0xfe, 0xed, 0xca, 0xfe] + Self.vethAdd
        #expect(UeventParser.parse(udev, from: kernel) == nil)
        #expect(UeventParser.parse(Self.vethAdd, from: NetlinkSender(port: 812, userID: 0)) == nil)
        #expect(UeventParser.parse(Self.vethAdd, from: NetlinkSender(port: 0, userID: 1000)) == nil)
        #expect(UeventParser.parse(Self.vethAdd, from: NetlinkSender(port: 0, userID: nil)) == nil)
    }

    @Test(arguments: [
        ["add@/devices/x"],
        ["nonsense"],
        ["add@/devices/x", "ACTION=remove", "DEVPATH=/devices/x", "SUBSYSTEM=net"],
        ["add@/devices/x", "ACTION=add", "DEVPATH=/devices/y", "SUBSYSTEM=net"],
        ["explode@/devices/x", "ACTION=explode", "DEVPATH=/devices/x", "SUBSYSTEM=net"],
        ["add@/devices/x", "ACTION=add", "DEVPATH=/devices/x"],
        ["add@/devices/x", "ACTION=add", "DEVPATH=/devices/x", "SUBSYSTEM=net", "SEQNUM=many"],
        ["add@/devices/x", "ACTION=add", "DEVPATH=/devices/x", "SUBSYSTEM=net", "=value"],
        ["add@/devices/x", "ACTION=add", "DEVPATH=/devices/x", "SUBSYSTEM=net", "NOEQUALS"],
    ])
    func rejectsMalformedMessages(fields: [String]) {
        #expect(UeventParser.parse(Self.datagram(fields)) == nil)
    }
}
