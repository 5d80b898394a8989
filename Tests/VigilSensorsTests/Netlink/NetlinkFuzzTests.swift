import CLinuxSupport
import Glibc
import Testing
import VigilSensors

/// A small seeded generator (SplitMix64) so a failing fuzz case can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite(.timeLimit(.minutes(10))) struct NetlinkFuzzTests {
    private static let seeds: [UInt64] = [1, 42, 0xDEAD_BEEF]

    private static func validRouteDatagram() -> [UInt8] {
        var builder = NetlinkMessageBuilder()
        builder.link(index: 2, name: "eth0", flags: 0x10043, kind: "veth", sequence: 3, messageFlags: 2)
        builder.address(index: 2, address: [192, 0, 2, 10], prefix: 24, sequence: 3)
        builder.route(gateway: nil, outputIndex: nil, multipath: [(2, [10, 0, 0, 1], 0), (3, [10, 0, 1, 1], 1)])
        builder.done(sequence: 3)
        builder.error(sequence: 4, errno: ENOBUFS)
        return builder.bytes
    }

    private static let validUevent: [UInt8] = [
        "change@/devices/virtual/net/v0", "ACTION=change", "DEVPATH=/devices/virtual/net/v0", "SUBSYSTEM=net",
        "SEQNUM=9",
    ].flatMap { Array($0.utf8) + [0] }

    @Test(arguments: seeds)
    func randomBuffersNeverCrash(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var mirror = NetworkMirror(sysfsRoot: nil)
        for _ in 0..<2_000 {
            let count = Int.random(in: 0...256, using: &random)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            let result = RouteMessageParser.parse(bytes)
            mirror.apply(result.envelopes.map(\.message))
            _ = mirror.path.status
            _ = UeventParser.parse(bytes)
        }
    }

    @Test(arguments: seeds)
    func truncatedAndMutatedMessagesAreSkippedAndCounted(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let valid = Self.validRouteDatagram()
        let complete = RouteMessageParser.parse(valid)
        #expect(complete.envelopes.count == 5 && complete.malformed == 0)
        for length in 0..<valid.count {
            let result = RouteMessageParser.parse(Array(valid.prefix(length)))
            #expect(result.envelopes.count <= 5)
            if length % 4 != 0 || result.envelopes.count < 5 {
                #expect(result.malformed + result.envelopes.count + result.ignored > 0 || length < 16)
            }
        }
        for _ in 0..<3_000 {
            var mutated = valid
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                mutated[Int.random(in: 0..<mutated.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            var mirror = NetworkMirror(sysfsRoot: nil)
            let result = RouteMessageParser.parse(mutated)
            mirror.apply(result.envelopes.map(\.message))
            _ = mirror.path.description
        }
        for length in 0..<Self.validUevent.count {
            _ = UeventParser.parse(Array(Self.validUevent.prefix(length)))
        }
        for _ in 0..<3_000 {
            var mutated = Self.validUevent
            mutated[Int.random(in: 0..<mutated.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            _ = UeventParser.parse(mutated)
        }
    }

    @Test func truncationInsideOneMessageIsMalformed() {
        var builder = NetlinkMessageBuilder()
        builder.link(index: 2, name: "eth0", flags: 0x10043)
        for cut in 1..<builder.bytes.count {
            let result = RouteMessageParser.parse(Array(builder.bytes.prefix(cut)))
            #expect(result.envelopes.isEmpty && result.malformed == 1, "cut at \(cut)")
        }
    }
}
