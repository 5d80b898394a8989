import Glibc
import Testing
import VigilSensors
import VigilTestSupport

/// The fake machine's receiver (``FakeGNSSReceiver``) behaves as a receiver that found its fix: it begins cold, and
/// once it has a fix it keeps it, so a test that looks at the latest reading at any moment after the first pass sees a
/// fix.
@Suite(.timeLimit(.minutes(1))) struct FakeGNSSReceiverTests {
    @Test func aFixOnceFoundIsKeptOverEveryRepeat() async throws {
        let sys = FakeSysfsTree()
        let dev = FakeSysfsTree()
        let receiver = try #require(FakeGNSSReceiver(sys: sys, dev: dev), "no pseudo-terminal free")
        let log = FakeGNSSReceiver.log
        #expect(FakeGNSSReceiver.repeatedFrom > 0 && FakeGNSSReceiver.repeatedFrom < log.count)
        // The first pass and three repeats.
        let wanted = log.count + 3 * (log.count - FakeGNSSReceiver.repeatedFrom)
        let path = receiver.slavePath
        let bytes = await offThePool { () -> [UInt8] in
            let descriptor = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC)
            guard descriptor >= 0 else { return [] }
            defer { close(descriptor) }
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while bytes.count < wanted {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                bytes += buffer[0..<count]
            }
            return bytes
        }
        #expect(bytes.count >= wanted)
        var decoder = NMEADecoder(receiver: "gnss0")
        let fixes = decoder.consume(bytes)
        let firstFix = try #require(fixes.firstIndex { $0.mode.hasFix })
        #expect(fixes[..<firstFix].allSatisfy { $0.description.hasPrefix("no fix") })
        // The cold start's one later gap (03:10:07) is in the first pass only.
        let lastGap = try #require(fixes.lastIndex { !$0.mode.hasFix })
        let passes = fixes.indices.filter { fixes[$0].time?.description == "2006-08-10T03:10:08.000Z" }
        #expect(passes.count >= 3, "\(passes)")
        #expect(lastGap < passes[0], "no fix at \(fixes[lastGap].time?.description ?? "?") after the first pass")
        withExtendedLifetime(receiver) {}
    }
}
