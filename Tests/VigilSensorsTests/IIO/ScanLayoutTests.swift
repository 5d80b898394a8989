import Testing
import VigilSensors

@Suite(.timeLimit(.minutes(10))) struct ScanLayoutTests {
    struct Case: Sendable, CustomStringConvertible {
        let description: String
        let channels: [(name: String, index: Int, type: String)]
        let offsets: [String: Int]
        let scanBytes: Int
        let order: [String]
    }

    static let cases: [Case] = [
        Case(
            description: "16 in 32 accelerometer with timestamp (the captures)",
            channels: [
                ("accel_x", 0, "le:s16/32>>0"), ("accel_y", 1, "le:s16/32>>0"), ("accel_z", 2, "le:s16/32>>0"),
                ("timestamp", 3, "le:s64/64>>0"),
            ],
            offsets: ["accel_x": 0, "accel_y": 4, "accel_z": 8, "timestamp": 16], scanBytes: 24,
            order: ["accel_x", "accel_y", "accel_z", "timestamp"]),
        Case(
            description: "three 16-bit channels, padded timestamp",
            channels: [
                ("anglvel_x", 0, "le:s16/16>>0"), ("anglvel_y", 1, "le:s16/16>>0"), ("anglvel_z", 2, "le:s16/16>>0"),
                ("timestamp", 3, "le:s64/64>>0"),
            ],
            offsets: ["anglvel_x": 0, "anglvel_y": 2, "anglvel_z": 4, "timestamp": 8], scanBytes: 16,
            order: ["anglvel_x", "anglvel_y", "anglvel_z", "timestamp"]),
        Case(
            description: "mixed sizes given out of order",
            channels: [("c", 2, "le:s32/32>>0"), ("a", 0, "le:u8/8>>0"), ("b", 1, "be:s16/16>>0")],
            offsets: ["a": 0, "b": 2, "c": 4], scanBytes: 8, order: ["a", "b", "c"]),
        Case(
            description: "scan padded to the largest storage",
            channels: [("a", 0, "le:s32/32>>0"), ("b", 1, "le:u8/8>>0")],
            offsets: ["a": 0, "b": 4], scanBytes: 8, order: ["a", "b"]),
        Case(
            description: "three 16-bit channels without padding",
            channels: [("x", 0, "le:s16/16>>0"), ("y", 1, "le:s16/16>>0"), ("z", 2, "le:s16/16>>0")],
            offsets: ["x": 0, "y": 2, "z": 4], scanBytes: 6, order: ["x", "y", "z"]),
        Case(
            description: "repeated quaternion aligned to its whole size",
            channels: [("rot_quaternion", 0, "le:s16/16X4>>0"), ("b", 1, "le:u8/8>>0")],
            offsets: ["rot_quaternion": 0, "b": 8], scanBytes: 16, order: ["rot_quaternion", "b"]),
        Case(
            description: "repeat of three aligned to one value",
            channels: [("a", 0, "le:u8/8>>0"), ("v", 1, "le:s16/16X3>>0"), ("w", 2, "le:s32/32>>0")],
            offsets: ["a": 0, "v": 2, "w": 8], scanBytes: 12, order: ["a", "v", "w"]),
    ]

    @Test(arguments: cases)
    func laysOutChannels(_ example: Case) throws {
        let layout = try ScanLayout(
            channels: example.channels.map { ($0.name, $0.index, try ScanElementType(parsing: $0.type)) })
        #expect(layout.elements.map(\.name) == example.order)
        for (name, offset) in example.offsets {
            #expect(layout.element(named: name)?.offset == offset, "\(name)")
        }
        #expect(layout.scanBytes == example.scanBytes)
    }

    @Test func rejectsDuplicateIndexAndEmptyScan() throws {
        let type = try ScanElementType(parsing: "le:s16/16>>0")
        #expect(throws: SensorError.self) { _ = try ScanLayout(channels: [("a", 0, type), ("b", 0, type)]) }
        #expect(throws: SensorError.self) { _ = try ScanLayout(channels: []) }
    }
}
