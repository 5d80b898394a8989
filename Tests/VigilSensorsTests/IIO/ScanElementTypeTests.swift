import Testing
import VigilSensors
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct ScanElementTypeTests {
    struct Case: Sendable, CustomStringConvertible {
        let text: String
        let byteOrder: ScanElementType.ByteOrder
        let isSigned: Bool
        let bits: Int
        let storageBits: Int
        let repeatCount: Int
        let shift: Int
        var description: String { text }
    }

    static let valid: [Case] = [
        Case(
            text: "le:s16/32>>0", byteOrder: .littleEndian, isSigned: true, bits: 16, storageBits: 32, repeatCount: 1,
            shift: 0),
        Case(
            text: "be:u12/16>>4", byteOrder: .bigEndian, isSigned: false, bits: 12, storageBits: 16, repeatCount: 1,
            shift: 4),
        Case(
            text: "le:s64/64>>0", byteOrder: .littleEndian, isSigned: true, bits: 64, storageBits: 64, repeatCount: 1,
            shift: 0),
        Case(
            text: "le:s16/16X4>>0", byteOrder: .littleEndian, isSigned: true, bits: 16, storageBits: 16,
            repeatCount: 4, shift: 0),
        Case(
            text: "be:u8/8", byteOrder: .bigEndian, isSigned: false, bits: 8, storageBits: 8, repeatCount: 1,
            shift: 0),
        Case(
            text: "  le:u24/32>>8\n", byteOrder: .littleEndian, isSigned: false, bits: 24, storageBits: 32,
            repeatCount: 1, shift: 8),
    ]

    @Test(arguments: valid)
    func parsesValidTypes(_ example: Case) throws {
        let type = try ScanElementType(parsing: example.text)
        #expect(type.byteOrder == example.byteOrder)
        #expect(type.isSigned == example.isSigned)
        #expect(type.bits == example.bits)
        #expect(type.storageBits == example.storageBits)
        #expect(type.repeatCount == example.repeatCount)
        #expect(type.shift == example.shift)
        #expect(try ScanElementType(parsing: type.description) == type)
    }

    static let invalid = [
        "", "le", "le:", "xe:s16/16>>0", "le:f32/32>>0", "le:s16/12>>0", "le:s16/24>>0", "le:s0/16>>0",
        "le:s12/16>>5", "le:s16/16X0>>0", "le:s16/16>>", "le:s16/16>0", "le:s16/16>>0x", "le:s16-16>>0",
        "LE:s16/16>>0", "le:s99999/16>>0", "le:s16/16>>-1", "le:s/16>>0", "le:s16/>>0", "le:s16/16X>>0",
    ]

    @Test(arguments: invalid)
    func rejectsMalformedTypesWithTheirPath(_ text: String) {
        #expect {
            _ = try ScanElementType(parsing: text, path: "/sys/x/in_accel_x_type")
        } throws: { error in
            guard case .malformedValue(let path, let quoted, let expected) = error as? SensorError else { return false }
            return path == "/sys/x/in_accel_x_type" && quoted == text && expected.contains("storagebits")
        }
    }

    @Test func memberwiseInitChecksConsistency() {
        #expect(throws: SensorError.self) {
            _ = try ScanElementType(byteOrder: .littleEndian, isSigned: true, bits: 17, storageBits: 16)
        }
    }

}
