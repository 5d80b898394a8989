import Testing
import VigilSensors

/// ``CapabilityBitmap``: sysfs's capability bitmaps (hexadecimal words, the most significant first) and `EVIOCGSW`'s
/// answer in memory, with the bitmaps of the devices in `testdata/input/README.md` as the oracle.
@Suite(.timeLimit(.minutes(10))) struct CapabilityBitmapTests {
    static func bits(_ text: String, wordBits: Int = 64) throws -> [Int] {
        try CapabilityBitmap(text: text, path: "/sys/x", wordBits: wordBits).bits
    }

    @Test func readsTheBitmapsOfTheTestDevices() throws {
        // EVIOCGBIT(0) of the lid (SYN, SW) and the tablet-mode switch (SYN, KEY, SW); their switch bitmaps.
        #expect(try Self.bits("21\n") == [0, 5])
        #expect(try Self.bits("23") == [0, 1, 5])
        #expect(try Self.bits("1") == [SwitchKind.lid.code])
        #expect(try Self.bits("2") == [SwitchKind.tabletMode.code])
        // HP WMI hotkeys: tablet mode and dock; a keyboard's event types.
        #expect(try Self.bits("22") == [1, 5])
        #expect(try Self.bits("120013") == [0, 1, 4, 17, 20])
    }

    @Test func wordsAreMostSignificantFirst() throws {
        #expect(try Self.bits("1 0") == [64])
        #expect(try Self.bits("8000000000000000 1") == [0, 127])
        #expect(try Self.bits("3 0 0", wordBits: 32) == [64, 65])
        #expect(try Self.bits("ffffffff 0", wordBits: 32) == Array(32..<64))
        let bitmap = try CapabilityBitmap(text: "1 8000000000000000\n", path: "key")
        #expect(bitmap.contains(63) && bitmap.contains(64))
        #expect(!bitmap.contains(0) && !bitmap.contains(65) && !bitmap.contains(-1) && !bitmap.contains(10_000))
    }

    @Test func zeroWordsMakeTheEmptyBitmap() throws {
        #expect(try CapabilityBitmap(text: "0", path: "sw").isEmpty)
        #expect(try CapabilityBitmap(text: "0 0 0", path: "sw") == CapabilityBitmap())
        #expect(try CapabilityBitmap(text: "0 1", path: "sw") == CapabilityBitmap(words: [1, 0, 0]))
    }

    @Test func aBitmapLongerThanAnyTheKernelPrintsIsRefused() throws {
        let fullest = (["ffff"] + Array(repeating: "0", count: CapabilityBitmap.maximumBits / 64 - 1))
        #expect(try Self.bits(fullest.joined(separator: " ")).count == 16)
        #expect(try Self.bits(fullest.joined(separator: " ")).last == CapabilityBitmap.maximumBits - 64 + 15)
        for long in [["1"] + fullest, ["1"] + Array(repeating: "0", count: 5000)] {
            #expect(throws: SensorError.self) { try Self.bits(long.joined(separator: " ")) }
        }
    }

    @Test(arguments: ["", " ", "zz", "0x21", "1  0", "12345678123456781", "-1", "1\n2", "+1"])
    func malformedBitmapsAreRefusedNamingThePath(text: String) {
        #expect(throws: SensorError.self) { try Self.bits(text) }
        do {
            _ = try Self.bits(text)
        } catch {
            guard case .malformedValue(let path, _, _) = error as? SensorError else {
                Issue.record("\(error)")
                return
            }
            #expect(path == "/sys/x")
        }
    }

    @Test func eviocgswBytesAreTheMachinesWords() {
        let lidAndDock = UInt(1) << UInt(SwitchKind.lid.code) | UInt(1) << UInt(SwitchKind.dock.code)
        let bytes = withUnsafeBytes(of: lidAndDock) { Array($0) } + [0xff]
        #expect(CapabilityBitmap(kernelBytes: bytes).bits == [0, 5])
        #expect(CapabilityBitmap(kernelBytes: []).isEmpty)
    }
}
