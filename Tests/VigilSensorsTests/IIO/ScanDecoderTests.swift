import Testing
import VigilSensors

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

    @Test func fuzzedLayoutsAndBytesStayWithinRange() throws {
        var random = SeededRandom(seed: 42)
        let storages = [8, 16, 32, 64]
        for _ in 0..<2_000 {
            var channels: [(name: String, index: Int, type: ScanElementType)] = []
            for index in 0..<Int.random(in: 1...5, using: &random) {
                let storage = storages.randomElement(using: &random)!
                let bits = Int.random(in: 1...storage, using: &random)
                let type = try ScanElementType(
                    byteOrder: Bool.random(using: &random) ? .littleEndian : .bigEndian,
                    isSigned: Bool.random(using: &random), bits: bits, storageBits: storage,
                    repeatCount: Int.random(in: 1...3, using: &random),
                    shift: Int.random(in: 0...(storage - bits), using: &random))
                channels.append(("c\(index)", index, type))
            }
            let layout = try ScanLayout(channels: channels)
            let count = Int.random(in: 0...(layout.scanBytes * 2), using: &random)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            guard let scan = try? layout.decodeScan(bytes) else {
                #expect(count < layout.scanBytes)
                continue
            }
            for channel in channels where channel.type.bits < 63 {
                let bits = channel.type.bits
                let range: ClosedRange<Int64> =
                    channel.type.isSigned ? -(1 << (bits - 1))...((1 << (bits - 1)) - 1) : 0...((1 << bits) - 1)
                #expect(scan.values[channel.name]?.allSatisfy(range.contains) == true)
                #expect(scan.values[channel.name]?.count == channel.type.repeatCount)
            }
        }
    }
}
