import CLinuxSupport
import Foundation
import Glibc
import Testing
import VigilTestSupport

@testable import VigilSensors

/// The generic netlink client against this kernel's controller (`nlctrl`) and `ethtool` family, with `genl` and
/// `ip -j` as the oracles.
@Suite(.timeLimit(.minutes(5)))
struct GenericNetlinkLiveTests {
    // ethtool's message and attribute numbers (linux/ethtool_netlink.h).
    static let linkInfoGet: UInt8 = 2
    static let linkStateGet: UInt8 = 6
    static let channelsGet: UInt8 = 17
    static let channelsSet: UInt8 = 18
    static let channelsNotification: UInt8 = 19
    static let headerAttribute: UInt16 = 1
    static let headerDeviceIndex: UInt16 = 1
    static let headerDeviceName: UInt16 = 2
    static let linkStateLink: UInt16 = 2
    static let channelsRxCount: UInt16 = 6
    static let channelsTxCount: UInt16 = 7

    @Test func resolvesTheControllerItself() throws {
        let client = try GenericNetlinkClient.open()
        let controller = try #require(try client.family(named: "nlctrl"))
        #expect(controller.id == 0x10)
        #expect(controller.name == "nlctrl")
        #expect(controller.version >= 1)
        #expect(controller.groups["notify"] != nil)
    }

    @Test func resolvesEthtoolAndItsMonitorGroupAsGenlDoes() throws {
        let client = try GenericNetlinkClient.open()
        let ethtool = try #require(try client.family(named: "ethtool"))
        let monitor = try #require(ethtool.groups["monitor"])
        guard let genl = try? Self.genl("ctrl", "get", "name", "ethtool") else {
            try skip("genl (iproute2) is not installed", expectedUnderCI: false)
        }
        #expect(genl.contains(String(format: "ID: 0x%x ", ethtool.id)), "\(genl)")
        #expect(genl.contains(String(format: "ID-0x%x  name: monitor", monitor)), "\(genl)")
    }

    @Test func aMissingFamilyIsNil() throws {
        let client = try GenericNetlinkClient.open()
        #expect(try client.family(named: "vigilnosuchfam") == nil)
    }

    @Test func dumpsEveryFamilyGenlLists() throws {
        let client = try GenericNetlinkClient.open()
        let families = try client.families()
        guard let genl = try? Self.genl("ctrl", "list") else {
            try skip("genl (iproute2) is not installed", expectedUnderCI: false)
        }
        let listed = Set(
            genl.split(separator: "\n").compactMap { line -> String? in
                line.hasPrefix("Name: ") ? String(line.dropFirst(6)).trimmingCharacters(in: .whitespaces) : nil
            })
        #expect(Set(families.map(\.name)) == listed)
        #expect(families.first { $0.name == "nlctrl" }?.id == 0x10)
        #expect(Set(families.map(\.id)).count == families.count, "ids are unique")
    }

    @Test func readsEthtoolLinkInfoAndStateOfAVethInANamespace() throws {
        guard NetlinkTestNamespace.isRoot else {
            try skip("needs root to create network namespaces (ip netns add)", expectedUnderCI: false)
        }
        let namespace = try NetlinkTestNamespace()
        defer { namespace.remove() }
        try namespace.ip("link", "add", "gva", "type", "veth", "peer", "name", "gvb")
        let client = try GenericNetlinkClient.open(namespace: namespace.path)
        let ethtool = try #require(try client.family(named: "ethtool"))
        let links = try namespace.json("link", "show")
        let index = try #require(links.first { $0["ifname"] as? String == "gva" }?["ifindex"] as? Int)

        // One device by name: the reply's header names it by index too.
        let info = try client.request(
            family: ethtool.id, command: Self.linkInfoGet, version: 1, attributes: Self.header(name: "gva"))
        let reply = try #require(info.first)
        #expect(info.count == 1)
        #expect(reply.command == Self.linkInfoGet)
        #expect(Self.device(of: reply)?.index == UInt32(index))
        #expect(Self.device(of: reply)?.name == "gva")

        // A dump of every device's link state, before and after the pair comes up, as `ip` reports the carrier.
        func linkStates() throws -> [String: UInt8] {
            let replies = try client.dump(family: ethtool.id, command: Self.linkStateGet, version: 1)
            var states: [String: UInt8] = [:]
            for reply in replies {
                guard let name = Self.device(of: reply)?.name else { continue }
                states[name] = reply.withAttributes { $0.uint8(Self.linkStateLink) }
            }
            return states
        }
        // ip's oracle: the carrier is the LOWER_UP flag of `ip -d -j link`.
        func carriers() throws -> [String: UInt8] {
            var carriers: [String: UInt8] = [:]
            for link in try namespace.json("-d", "link", "show") {
                guard let name = link["ifname"] as? String, name.hasPrefix("gv") else { continue }
                carriers[name] = (link["flags"] as? [String])?.contains("LOWER_UP") == true ? 1 : 0
            }
            return carriers
        }
        let down = try linkStates()
        #expect(down["gva"] == 0 && down["gvb"] == 0, "\(down)")
        #expect(down.filter { $0.key.hasPrefix("gv") } == (try carriers()))
        try namespace.ip("link", "set", "gva", "up")
        try namespace.ip("link", "set", "gvb", "up")
        let up = try linkStates()
        #expect(up["gva"] == 1 && up["gvb"] == 1, "\(up)")
        #expect(up.filter { $0.key.hasPrefix("gv") } == (try carriers()))
    }

    @Test func aRefusedRequestThrowsTheKernelsErrorWithItsMessage() throws {
        guard NetlinkTestNamespace.isRoot else {
            try skip("needs root to create network namespaces (ip netns add)", expectedUnderCI: false)
        }
        let namespace = try NetlinkTestNamespace()
        defer { namespace.remove() }
        let client = try GenericNetlinkClient.open(namespace: namespace.path)
        let ethtool = try #require(try client.family(named: "ethtool"))
        let error = #expect(throws: SensorError.self) {
            try client.request(
                family: ethtool.id, command: Self.linkInfoGet, version: 1, attributes: Self.header(name: "nosuch0"))
        }
        guard case .systemCall(let name, _, let errno) = error else {
            Issue.record("not the kernel's error: \(String(describing: error))")
            return
        }
        #expect(errno == .noSuchDevice)
        #expect(name.contains("\(ethtool.id)"), "\(name)")
        // The client is usable after the error: the next request gets its own answer, not the stale one.
        #expect(try client.family(named: "nlctrl")?.id == 0x10)
    }

    @Test func joinsEthtoolsMonitorGroupAndReceivesAChannelsNotification() async throws {
        guard NetlinkTestNamespace.isRoot else {
            try skip("needs root to create network namespaces (ip netns add)", expectedUnderCI: false)
        }
        let namespace = try NetlinkTestNamespace()
        defer { namespace.remove() }
        try namespace.ip(
            "link", "add", "gna", "numtxqueues", "4", "numrxqueues", "4", "type", "veth", "peer", "name", "gnb",
            "numtxqueues", "4", "numrxqueues", "4")
        let client = try GenericNetlinkClient.open(namespace: namespace.path)
        let ethtool = try #require(try client.family(named: "ethtool"))
        let events = try NetlinkSocket(
            netlinkProtocol: NETLINK_GENERIC, groups: 0, namespace: namespace.path, receiveBufferSize: 1 << 20,
            passCredentials: false)
        defer { events.close() }
        try events.joinGroup(try #require(ethtool.groups["monitor"]))

        // A change made through the client (in the test's own namespace only) is announced on the group.
        var attributes = NetlinkAttributeWriter()
        attributes.appendNested(Self.headerAttribute) { $0.append(Self.headerDeviceName, string: "gna") }
        attributes.append(Self.channelsRxCount, uint32: 2)
        attributes.append(Self.channelsTxCount, uint32: 2)
        _ = try client.request(
            family: ethtool.id, command: Self.channelsSet, version: 1, attributes: attributes.bytes)

        var buffer = [UInt8](repeating: 0, count: GenericNetlinkClient.bufferSize)
        var notification: GenericNetlinkMessage?
        while notification == nil, try events.waitForInput(timeout: .seconds(10)) {
            guard case .datagram(let count, let sender, let truncated) = try events.receive(into: &buffer) else {
                continue
            }
            #expect(sender.isKernel && !truncated)
            let parts = GenericNetlinkParser.parse(Array(buffer[..<count])).parts
            for case .message(let message) in parts where message.header.type == ethtool.id {
                notification = message
            }
        }
        let message = try #require(notification, "no notification on ethtool's monitor group")
        #expect(message.command == Self.channelsNotification)
        #expect(Self.device(of: message)?.name == "gna")
        #expect(message.withAttributes { $0.uint32(Self.channelsRxCount) } == 2)
    }

    /// An ethtool request header naming a device.
    static func header(name: String) -> [UInt8] {
        var attributes = NetlinkAttributeWriter()
        attributes.appendNested(headerAttribute) { $0.append(headerDeviceName, string: name) }
        return attributes.bytes
    }

    /// The device an ethtool reply's header names.
    static func device(of message: GenericNetlinkMessage) -> (index: UInt32?, name: String?)? {
        message.withAttributes { attributes in
            guard let header = attributes.nested(headerAttribute) else { return nil }
            return (header.uint32(headerDeviceIndex), header.string(headerDeviceName))
        }
    }

    /// Runs `genl args…` and returns what it printed.
    static func genl(_ arguments: String...) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/genl")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
