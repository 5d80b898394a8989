/// A capability bitmap of an input device as sysfs prints it (`capabilities/ev`, `capabilities/sw`): hexadecimal
/// words of the kernel's `unsigned long`, the most significant first, separated by spaces, leading zero words left out
/// (`input_print_bitmap` in `drivers/input/input.c`), for example `21` or `120013` or `1 0`.
package struct CapabilityBitmap: Equatable, Sendable {
    /// The set bits up to the highest one asked for, in ascending order.
    package let bits: [Int]

    package init(bits: [Int]) { self.bits = bits }

    /// Whether `bit` is set.
    package func contains(_ bit: Int) -> Bool { bits.contains(bit) }

    /// Parses `text` as printed by the kernel.
    ///
    /// The kernel's word is its `unsigned long`: 64 bits on every kernel a 64-bit process runs on, which is the word
    /// used unless `wordBits` says otherwise. Bits above `maximumBit` are ignored, so a bitmap of any length costs
    /// only what it holds below it.
    ///
    /// - Parameters:
    ///   - text: The attribute's text; surrounding white space is ignored.
    ///   - path: The attribute, named in errors.
    ///   - maximumBit: The highest bit kept.
    ///   - wordBits: The bits per word.
    /// - Throws: ``SensorError/malformedValue(path:text:expected:)`` for an empty text, a word that is not
    ///   hexadecimal or longer than a word.
    package static func parse(
        _ text: String, path: String, maximumBit: Int, wordBits: Int = 64
    ) throws(SensorError) -> CapabilityBitmap {
        let expected = "a capability bitmap (hexadecimal words separated by spaces)"
        let words = text.trimmingWhitespace().split(separator: " ", omittingEmptySubsequences: false)
        guard !words.isEmpty, words != [""] else { throw .malformedValue(path: path, text: text, expected: expected) }
        var bits: [Int] = []
        for (index, word) in words.reversed().enumerated() {
            guard !word.isEmpty, word.utf8.count <= wordBits / 4, word.utf8.allSatisfy(Self.isHexDigit),
                let value = UInt64(word, radix: 16)
            else {
                throw .malformedValue(path: path, text: text, expected: expected)
            }
            let base = index * wordBits
            guard base <= maximumBit else { continue }
            for offset in 0..<wordBits where value & (1 << UInt64(offset)) != 0 && base + offset <= maximumBit {
                bits.append(base + offset)
            }
        }
        return CapabilityBitmap(bits: bits.sorted())
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    /// The set bits of a bitmap the kernel filled in memory (an `EVIOCGSW` answer): `unsigned long` words in the
    /// machine's byte order, bit `n` in word `n / 64`; a trailing partial word is ignored.
    package static func bits(ofKernelBytes bytes: [UInt8]) -> [Int] {
        let wordBytes = MemoryLayout<UInt>.size
        var bits: [Int] = []
        bytes.withUnsafeBytes { buffer in
            for index in 0..<(buffer.count / wordBytes) {
                let word = buffer.loadUnaligned(fromByteOffset: index * wordBytes, as: UInt.self)
                for offset in 0..<UInt.bitWidth where word & (1 << UInt(offset)) != 0 {
                    bits.append(index * UInt.bitWidth + offset)
                }
            }
        }
        return bits
    }
}
