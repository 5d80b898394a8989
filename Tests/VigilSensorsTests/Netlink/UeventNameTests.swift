import Foundation
import Testing
import VigilSensors

/// Uevent values that are not UTF-8 (a device or interface name, a USB descriptor string, the `DEVPATH` holding one)
/// keep their exact bytes: in JSON the array of them, in readable text escaped like `ls -b`, never U+FFFD.
@Suite(.timeLimit(.minutes(5))) struct UeventNameTests {
    /// Latin-1 "café": `E9` alone is not UTF-8.
    private static let cafe: [UInt8] = Array("caf".utf8) + [0xE9]
    private static let devpath: [UInt8] = Array("/devices/virtual/net/".utf8) + cafe

    /// `action@devpath`, then each `KEY=VALUE`, every field ended by NUL, as the kernel sends them.
    private static func datagram(_ fields: [[UInt8]]) -> [UInt8] {
        fields.flatMap { $0 + [0] }
    }

    private static let interfaceAdded = datagram([
        Array("add@".utf8) + devpath, Array("ACTION=add".utf8), Array("DEVPATH=".utf8) + devpath,
        Array("SUBSYSTEM=net".utf8), Array("INTERFACE=".utf8) + cafe, Array("ID_MODEL=Caf".utf8) + [0xE9, 0xFF],
        Array("IFINDEX=7".utf8), Array("SEQNUM=12".utf8),
    ])

    @Test func jsonCarriesTheExactBytesOfValuesThatAreNotUTF8() throws {
        let event = try #require(UeventParser.parse(Self.interfaceAdded))
        let json = try JSONEncoder().encode(event)
        #expect(!String(decoding: json, as: UTF8.self).contains("\u{FFFD}"))
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let properties = try #require(object["properties"] as? [String: Any])
        #expect((object["devpath"] as? [Int])?.map(UInt8.init) == Self.devpath, "\(object)")
        #expect((properties["DEVPATH"] as? [Int])?.map(UInt8.init) == Self.devpath, "\(properties)")
        #expect((properties["INTERFACE"] as? [Int])?.map(UInt8.init) == Self.cafe, "\(properties)")
        #expect((properties["ID_MODEL"] as? [Int])?.map(UInt8.init) == Array("Caf".utf8) + [0xE9, 0xFF])
        // What is UTF-8 stays the string it is.
        #expect(object["subsystem"] as? String == "net" && properties["IFINDEX"] as? String == "7")
    }

    @Test func descriptionEscapesBytesThatAreNotUTF8LikeLsB() throws {
        let event = try #require(UeventParser.parse(Self.interfaceAdded))
        #expect(
            event.description
                == #"add net /devices/virtual/net/caf\351 (ID_MODEL=Caf\351\377 IFINDEX=7 INTERFACE=caf\351) #12"#)
    }

    /// The kernel's property names are ASCII identifiers: one that is not UTF-8 could only be written as a look-alike
    /// (a JSON object's keys are strings), so such a datagram is malformed, like one whose property has no `=`.
    @Test func aPropertyNameThatIsNotUTF8IsMalformed() {
        let bytes = Self.datagram([
            Array("change@/devices/x".utf8), Array("ACTION=change".utf8), Array("DEVPATH=/devices/x".utf8),
            Array("SUBSYSTEM=net".utf8), Self.cafe + Array("=1".utf8),
        ])
        #expect(UeventParser.parse(bytes) == nil)
    }
}
