import Testing
import VigilSensors
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct ScanDecoderTests {
    struct Case: Sendable, CustomStringConvertible {
        let type: String
        let bytes: [UInt8]
        let value: Int64
        var description: String { "\(type) \(bytes)" }
    }

    static let cases: [Case] = [
        Case(type: "le:s16/16>>0", bytes: [0xFF, 0xFF], value: -1),
        Case(type: "le:s16/16>>0", bytes: [0x34, 0x12], value: 0x1234),
        Case(type: "be:s16/16>>0", bytes: [0x12, 0x34], value: 0x1234),
        Case(type: "be:s16/16>>0", bytes: [0x80, 0x00], value: -32768),
        Case(type: "le:u16/16>>0", bytes: [0xFF, 0xFF], value: 65535),
        Case(type: "be:s12/16>>4", bytes: [0xFF, 0xF0], value: -1),
        Case(type: "be:s12/16>>4", bytes: [0x7F, 0xF0], value: 2047),
        Case(type: "be:s12/16>>4", bytes: [0x80, 0x0F], value: -2048),
        Case(type: "le:u12/16>>4", bytes: [0xF0, 0xFF], value: 4095),
        Case(type: "le:s12/16>>0", bytes: [0xFF, 0xF7], value: 2047),
        Case(type: "le:s12/16>>0", bytes: [0x00, 0xF8], value: -2048),
        Case(type: "le:s16/32>>0", bytes: [0x67, 0x00, 0x69, 0xFC], value: 103),
        Case(type: "le:s16/32>>0", bytes: [0x69, 0xFC, 0x7F, 0xFE], value: -919),
        Case(type: "le:s32/32>>0", bytes: [0x00, 0x00, 0x00, 0x80], value: Int64(Int32.min)),
        Case(type: "be:u32/32>>0", bytes: [0x12, 0x34, 0x56, 0x78], value: 0x1234_5678),
        Case(type: "le:u32/32>>0", bytes: [0xFF, 0xFF, 0xFF, 0xFF], value: 0xFFFF_FFFF),
        Case(type: "le:s24/32>>8", bytes: [0xAA, 0x00, 0x00, 0x80], value: -8_388_608),
        Case(
            type: "le:s64/64>>0", bytes: [0xCE, 0x81, 0x74, 0x45, 0x09, 0xFC, 0x5B, 0x16], value: 0x165B_FC09_4574_81CE),
        Case(type: "be:s64/64>>0", bytes: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE], value: -2),
        Case(type: "le:u8/8>>0", bytes: [0xFE], value: 254),
        Case(type: "le:s8/8>>0", bytes: [0xFE], value: -2),
        Case(type: "le:u1/8>>7", bytes: [0x80], value: 1),
    ]

    @Test(arguments: cases)
    func decodesOneValue(_ example: Case) throws {
        let layout = try ScanLayout(channels: [("v", 0, try ScanElementType(parsing: example.type))])
        #expect(try layout.decodeScan(example.bytes)["v"] == example.value)
    }

    @Test func decodesRepeatedValuesAndTimestamp() throws {
        let layout = try ScanLayout(channels: [
            ("rot_quaternion", 0, try ScanElementType(parsing: "le:s16/16X4>>0")),
            ("timestamp", 1, try ScanElementType(parsing: "le:s64/64>>0")),
        ])
        let bytes: [UInt8] = [1, 0, 0xFF, 0xFF, 3, 0, 0, 0x80, 0x10, 0x27, 0, 0, 0, 0, 0, 0]
        let scan = try layout.decodeScan(bytes)
        #expect(scan.values["rot_quaternion"] == [1, -1, 3, -32768])
        #expect(scan.timestamp == 10_000)
    }

    @Test func decodesSeveralScansAndRejectsATruncatedOne() throws {
        let layout = try ScanLayout(channels: [
            ("x", 0, try ScanElementType(parsing: "be:s16/16>>0")),
            ("y", 1, try ScanElementType(parsing: "le:u8/8>>0")),
        ])
        let scans = try layout.decodeScans([0xFF, 0xFE, 7, 0, 0x00, 0x05, 9, 0xAA])
        #expect(scans.map { $0["x"] } == [-2, 5])
        #expect(scans.map { $0["y"] } == [7, 9])
        #expect(scans.allSatisfy { $0.timestamp == nil })
        #expect(throws: SensorError.self) { _ = try layout.decodeScans([0xFF, 0xFE, 7, 0, 0x00]) }
        #expect(throws: SensorError.self) { _ = try layout.decodeScan([0xFF, 0xFE, 7]) }
        #expect(throws: SensorError.self) { _ = try layout.decodeScan([UInt8]()) }
    }

    /// An `iio-scan` fuzz corpus input as its fuzzer reads it: scan-element types, one a line, a NUL, then scan bytes.
    static func corpusLayout(_ name: String) throws -> (layout: ScanLayout, types: [ScanElementType], scans: [UInt8]) {
        let bytes = try #require(FuzzCorpus.input("iio-scan", name))
        let split = try #require(bytes.firstIndex(of: 0))
        let lines = String(decoding: bytes[..<split], as: UTF8.self).split(separator: "\n")
        let types = try lines.map { try ScanElementType(parsing: String($0)) }
        let layout = try ScanLayout(channels: types.enumerated().map { ("c\($0.offset)", $0.offset, $0.element) })
        return (layout, types, Array(bytes[(split + 1)...]))
    }

    /// The `iio-scan` corpus, each input with the values of its scans by channel. The fuzz target names channels by
    /// number, as here, so a 64-bit timestamp channel decodes as a value, not as the scan's timestamp.
    static let corpus: [(name: String, scans: [[String: [Int64]]])] = [
        // The captures' accelerometer: x, y, z `le:s16/32>>0` (the low half of each word), then the 64-bit timestamp.
        ("accelerometer-capture", [["c0": [0x0067], "c1": [-919], "c2": [-385], "c3": [0x165B_FC09_4574_81CE]]]),
        // Three 16-bit values in one channel, then the 64-bit one at the next multiple of 8.
        ("repeat", [["c0": [0x0100, 0x0302, 0x0504], "c1": [0x0F0E_0D0C_0B0A_0908]]]),
        // Big-endian 12 bits shifted right by 4, signed and unsigned, and a byte: two 6-byte scans.
        ("shifted-big-endian", [["c0": [0], "c1": [0x020], "c2": [4]], ["c0": [0x060], "c1": [0x080], "c2": [10]]]),
    ]

    @Test func everyCorpusInputHasAnExpectation() {
        #expect(FuzzCorpus.names("iio-scan") == Self.corpus.map(\.name))
    }

    @Test(arguments: corpus.map(\.name))
    func corpusInputDecodesToItsScans(name: String) throws {
        let (layout, types, bytes) = try Self.corpusLayout(name)
        let expected = try #require(Self.corpus.first { $0.name == name })
        let scans = try layout.decodeScans(bytes)
        #expect(scans.map(\.values) == expected.scans)
        #expect(scans.allSatisfy { $0.timestamp == nil })
        // Every type line reads back from its description; a scan cut short is a typed error, never a partial scan.
        for type in types { #expect(try ScanElementType(parsing: type.description) == type) }
        #expect(throws: SensorError.self) { _ = try layout.decodeScan(Array(bytes.prefix(layout.scanBytes - 1))) }
    }

}
