import CLinuxSupport
import FoundationEssentials
import Glibc
import Testing
import VigilSensors
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct NetworkMirrorTests {
    private static let upCarrier = InterfaceFlags([.up, .running, .lowerUp, .broadcast, .multicast])

    private func mirror(_ build: (inout NetlinkMessageBuilder) -> Void, into mirror: inout NetworkMirror) {
        var builder = NetlinkMessageBuilder()
        build(&builder)
        mirror.apply(RouteMessageParser.parse(builder.bytes).envelopes.map(\.message))
    }

    @Test func statusFollowsEachCondition() {
        var state = NetworkMirror(sysfsRoot: nil)
        #expect(state.path.status == .unsatisfied(reason: .noInterfaceUp))
        mirror({ $0.link(index: 1, name: "lo", hardwareType: 772, flags: 0x10049, operstate: 0) }, into: &state)
        mirror({ $0.address(index: 1, address: [127, 0, 0, 1], prefix: 8, scope: 254) }, into: &state)
        #expect(state.path.status == .unsatisfied(reason: .noInterfaceUp))
        #expect(state.path.interface(named: "lo")?.kind == .loopback)
        #expect(state.path.interface(named: "lo")?.state == .carrier)

        mirror({ $0.link(index: 2, name: "eth0", flags: 0x1003, operstate: 2) }, into: &state)
        #expect(state.path.status == .unsatisfied(reason: .noCarrier))
        #expect(state.path.interface(named: "eth0")?.state == .noCarrier)

        mirror({ $0.link(index: 2, name: "eth0", flags: Self.upCarrier.rawValue) }, into: &state)
        #expect(state.path.status == .unsatisfied(reason: .noRoutableAddress))
        #expect(state.path.interface(named: "eth0")?.state == .carrier)

        let linkLocal: [UInt8] = [0xfe, 0x80] + [UInt8](repeating: 0, count: 13) + [2]
        mirror({ $0.address(family: AF_INET6, index: 2, address: linkLocal, prefix: 64, scope: 253) }, into: &state)
        #expect(state.path.interface(named: "eth0")?.state == .degraded)
        mirror({ $0.address(index: 2, address: [192, 0, 2, 10], prefix: 24, flags: 0x40) }, into: &state)
        #expect(state.path.status == .unsatisfied(reason: .noRoutableAddress), "a tentative address does not count")
        mirror({ $0.address(index: 2, address: [192, 0, 2, 10], prefix: 24) }, into: &state)
        #expect(state.path.status == .unsatisfied(reason: .noDefaultRoute))
        #expect(state.path.interface(named: "eth0")?.state == .routable)
        #expect(state.path.interface(named: "eth0")?.addresses.count == 2)

        mirror({ $0.route(family: AF_INET6, gateway: linkLocal, outputIndex: 2) }, into: &state)
        #expect(!state.path.isConnected, "an IPv6 default route needs a global IPv6 address")
        mirror({ $0.route(gateway: [192, 0, 2, 1], outputIndex: 2, metric: 100) }, into: &state)
        #expect(state.path.status == .satisfied && state.path.isConnected)
        #expect(state.path.connectedInterfaces.map(\.name) == ["eth0"])
        #expect(state.path.defaultRoutes.count == 2)

        mirror({ $0.route(Int32(RTM_DELROUTE), gateway: [192, 0, 2, 1], outputIndex: 2, metric: 100) }, into: &state)
        #expect(state.path.status == .unsatisfied(reason: .noDefaultRoute))
    }

    @Test func linkDownAndDeletionDropWhatTheKernelDrops() {
        var state = NetworkMirror(sysfsRoot: nil)
        mirror(
            {
                $0.link(index: 2, name: "eth0", flags: Self.upCarrier.rawValue)
                $0.address(index: 2, address: [192, 0, 2, 10], prefix: 24)
                $0.route(gateway: [192, 0, 2, 1], outputIndex: 2)
            }, into: &state)
        #expect(state.path.isConnected)
        mirror({ $0.link(index: 2, name: "eth0", flags: 0x1002, operstate: 2) }, into: &state)
        #expect(state.path.defaultRoutes.isEmpty, "IPv4 routes go silently when the link goes down")
        #expect(state.path.interface(index: 2)?.addresses.count == 1)

        mirror(
            {
                $0.link(index: 2, name: "wan0", flags: Self.upCarrier.rawValue)
                $0.route(gateway: [192, 0, 2, 1], outputIndex: 2)
            }, into: &state)
        #expect(state.path.interface(index: 2)?.name == "wan0" && state.path.isConnected)
        mirror({ $0.address(Int32(RTM_DELADDR), index: 2, address: [192, 0, 2, 10], prefix: 24) }, into: &state)
        #expect(state.path.defaultRoutes.isEmpty, "IPv4 routes go with the link's last IPv4 address")

        mirror({ $0.link(Int32(RTM_DELLINK), index: 2, name: "wan0", flags: 0) }, into: &state)
        #expect(state.path.interfaces.isEmpty)
    }

    @Test func multipathRouteLosesOnlyTheDeletedLinksHop() {
        var state = NetworkMirror(sysfsRoot: nil)
        mirror(
            {
                $0.link(index: 2, name: "a", flags: Self.upCarrier.rawValue, kind: "veth")
                $0.link(index: 3, name: "b", flags: Self.upCarrier.rawValue, kind: "veth")
                $0.route(gateway: nil, outputIndex: nil, multipath: [(2, [10, 0, 0, 1], 0), (3, [10, 0, 1, 1], 0)])
            }, into: &state)
        #expect(state.path.defaultRoutes.first?.interfaceIndexes == [2, 3])
        #expect(state.path.interface(index: 2)?.kind == .virtual)
        mirror({ $0.link(Int32(RTM_DELLINK), index: 2, name: "a", flags: 0) }, into: &state)
        #expect(state.path.defaultRoutes.first?.interfaceIndexes == [3])
    }

    @Test func wirelessComesFromSysfs() throws {
        let root = TemporaryDirectory("vigil-netlink")
        defer { root.remove() }
        for directory in [
            "class", "class/net", "class/net/eth0", "class/net/wlan0", "class/net/wlan0/phy80211",
            "class/net/wlp2s0", "class/net/wlp2s0/wireless",
        ] {
            #expect(mkdir(root.file(directory), 0o755) == 0)
        }
        var state = NetworkMirror(sysfsRoot: root.path)
        mirror(
            {
                $0.link(index: 2, name: "eth0", flags: 0x1003)
                $0.link(index: 3, name: "wlan0", flags: 0x1003)
                $0.link(index: 4, name: "wlp2s0", flags: 0x1003)
            }, into: &state)
        #expect(state.path.interfaces.map(\.kind) == [.ethernet, .wireless, .wireless])
    }

    /// USB modems' interfaces have Ethernet's hardware type (`qmi_wwan` in 802.3 mode), or none in raw-IP mode;
    /// only sysfs's `DEVTYPE=wwan` tells them apart, and a tunnel without it stays virtual.
    @Test func aModemsInterfaceIsCellularFromItsDeviceType() throws {
        let root = TemporaryDirectory("vigil-netlink")
        defer { root.remove() }
        for directory in ["class", "class/net", "class/net/eth0", "class/net/wwp0s20f0u6i4", "class/net/wwan0"] {
            #expect(mkdir(root.file(directory), 0o755) == 0)
        }
        #expect(writeFile(root.file("class/net/eth0/uevent"), "INTERFACE=eth0\nIFINDEX=2\n"))
        #expect(writeFile(root.file("class/net/wwp0s20f0u6i4/uevent"), "DEVTYPE=wwan\nINTERFACE=wwp0s20f0u6i4\n"))
        #expect(writeFile(root.file("class/net/wwan0/uevent"), "DEVTYPE=wwan\nINTERFACE=wwan0\n"))
        var state = NetworkMirror(sysfsRoot: root.path)
        // ARPHRD_NONE is 0xFFFE; a tun device has it too, with its link kind.
        mirror(
            {
                $0.link(index: 2, name: "eth0", flags: 0x1003)
                $0.link(index: 3, name: "wwp0s20f0u6i4", flags: 0x1003)
                $0.link(index: 4, name: "wwan0", hardwareType: 0xFFFE, flags: 0x1003)
                $0.link(index: 5, name: "tun0", hardwareType: 0xFFFE, flags: 0x1003, kind: "tun")
                $0.link(index: 6, name: "wwan1", hardwareType: 0xFFFE, flags: 0x1003, kind: "wwan")
            }, into: &state)
        #expect(state.path.interfaces.map(\.kind) == [.ethernet, .cellular, .cellular, .virtual, .cellular])
        #expect(state.path.interfaces.map { LinkMedium($0) } == [.wired, .cellular, .cellular, .tunnel, .cellular])
    }

    /// With the links in another namespace than sysfs shows, the names systemd and the drivers give tell Wi-Fi and
    /// modems from Ethernet; a name that says nothing stays Ethernet.
    @Test func withoutSysfsTheNamesTellWiFiAndModems() {
        var state = NetworkMirror(sysfsRoot: nil)
        mirror(
            {
                $0.link(index: 2, name: "eth0", flags: 0x1003)
                $0.link(index: 3, name: "wlp2s0", flags: 0x1003)
                $0.link(index: 4, name: "wwp0s20f0u6i4", flags: 0x1003)
                $0.link(index: 5, name: "rmnet_data0", hardwareType: 0xFFFE, flags: 0x1003, kind: "rmnet")
                // A virtual device's name is anyone's choice: its link kind decides.
                $0.link(index: 6, name: "wwtest", flags: 0x1003, kind: "veth")
                $0.link(index: 7, name: "wltest", flags: 0x1003, kind: "veth")
            }, into: &state)
        #expect(state.path.interfaces.map(\.kind) == [.ethernet, .wireless, .cellular, .cellular, .virtual, .virtual])
        #expect(
            state.path.interfaces.map { LinkMedium($0) } == [.wired, .wifi, .cellular, .cellular, .virtual, .virtual])
    }

    @Test func pathEncodesAndDescribes() throws {
        var state = NetworkMirror(sysfsRoot: nil)
        mirror(
            {
                $0.link(index: 2, name: "eth0", flags: Self.upCarrier.rawValue)
                $0.address(index: 2, address: [192, 0, 2, 10], prefix: 24)
                $0.route(gateway: [192, 0, 2, 1], outputIndex: 2, metric: 100)
            }, into: &state)
        let text = state.path.description
        #expect(text.hasPrefix("satisfied via eth0"))
        #expect(text.contains("eth0: routable 192.0.2.10/24"))
        #expect(text.contains("default ipv4 via 192.0.2.1 dev eth0 metric 100"))
        let json = try String(decoding: JSONEncoder().encode(state.path), as: UTF8.self)
        #expect(json.contains("\"isConnected\":true") && json.contains("\"hardwareAddress\":\"02:00:00:00:00:02\""))
    }

    /// A router with a full table has about a million routes; the mirror keeps the default routes and at most
    /// `routeLimit` others (4,096; 16 here, so the test stays cheap under ThreadSanitizer), counting the rest, so no
    /// message or snapshot costs time or memory in proportion to the table.
    @Test func routesBeyondTheLimitAreCountedNotKept() {
        var state = NetworkMirror(sysfsRoot: nil, routeLimit: 16)
        mirror({ $0.link(index: 2, name: "eth0", flags: Self.upCarrier.rawValue) }, into: &state)
        mirror({ $0.address(index: 2, address: [192, 0, 2, 10], prefix: 24) }, into: &state)
        let extra = 10
        let count = 16 + extra
        func destination(_ number: Int) -> [UInt8] { [10, UInt8(number >> 8), UInt8(number & 0xFF), 0] }
        mirror(
            { builder in
                for number in 0..<count {
                    builder.route(
                        destinationLength: 24, destination: destination(number), gateway: [192, 0, 2, 1],
                        outputIndex: 2)
                }
                // The default route comes last, past the limit: it is kept all the same.
                builder.route(gateway: [192, 0, 2, 1], outputIndex: 2)
            }, into: &state)
        var path = state.path
        #expect(path.routes.count == 16 + 1)
        #expect(path.omittedRoutes == extra)
        #expect(path.isConnected)
        #expect(path.description.contains("\(extra) more routes not kept"))
        // A kept route that goes makes no room by itself (the kernel does not resend the others); deleting an omitted
        // one lowers the count.
        mirror(
            {
                $0.route(
                    Int32(RTM_DELROUTE), destinationLength: 24, destination: destination(count - 1),
                    gateway: [192, 0, 2, 1], outputIndex: 2)
            }, into: &state)
        path = state.path
        #expect(path.omittedRoutes == extra - 1)
        #expect(path.routes.count == 16 + 1)
    }
}
