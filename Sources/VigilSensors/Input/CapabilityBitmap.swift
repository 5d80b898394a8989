/// A capability bitmap of an input device: as sysfs prints it (`capabilities/ev`, `key`, `sw`, …) or as an ioctl such
/// as `EVIOCGSW` fills it in memory. The switches source and the device inventory read every bitmap through it.
///
/// sysfs prints hexadecimal words of the kernel's `unsigned long`, the most significant first, separated by one space,
/// leading zero words left out (`input_print_bitmap` in `drivers/input/input.c`): `21`, `120013`, `1 0`. A text of
/// more words than ``maximumBits`` fills is no bitmap the kernel prints, and is refused at its first word too many.
package struct CapabilityBitmap: Equatable, Sendable {
    /// The bits kept: more than any input bitmap has (`KEY_CNT` is 768).
    package static let maximumBits = 4096

    /// 64-bit words, word 0 the least significant, without trailing zero words (so equal bitmaps compare equal).
    package private(set) var words: [UInt64]

    /// The bitmap of `words`, word 0 the least significant.
    package init(words: [UInt64] = []) {
        self.words = Array(words.prefix(Self.maximumBits / 64))
        trimZeroWords()
    }

    /// Parses `text` as printed by the kernel.
    ///
    /// - Parameters:
    ///   - text: The attribute's text; white space around it is ignored.
    ///   - path: The attribute, named in errors.
    ///   - wordBits: The bits of the kernel's `unsigned long`: 64 on every kernel a 64-bit process runs on.
    /// - Throws: ``SensorError/malformedValue(path:text:expected:)`` for an empty text, two spaces in a row, a word
    ///   that is not hexadecimal digits or is longer than a word, or more words than ``maximumBits`` fills.
    package init(text: String, path: String, wordBits: Int = 64) throws(SensorError) {
        let expected = "a capability bitmap (hexadecimal words separated by spaces)"
        let parts = text.trimmingWhitespace().split(separator: " ", omittingEmptySubsequences: false)
        guard parts != [""], parts.count * wordBits <= Self.maximumBits else {
            throw .malformedValue(path: path, text: text, expected: expected)
        }
        words = []
        for (index, part) in parts.reversed().enumerated() {
            guard !part.isEmpty, part.utf8.count <= wordBits / 4, part.utf8.allSatisfy(Self.isHexDigit),
                let value = UInt64(part, radix: 16)
            else {
                throw .malformedValue(path: path, text: text, expected: expected)
            }
            let base = index * wordBits
            guard value != 0 else { continue }
            for offset in 0..<wordBits where value & (1 << UInt64(offset)) != 0 { insert(base + offset) }
        }
        trimZeroWords()
    }

    /// The bitmap an ioctl filled in memory (`EVIOCGSW`): `unsigned long` words in the machine's byte order, bit `n`
    /// in word `n / UInt.bitWidth`; a trailing partial word is ignored.
    package init(kernelBytes bytes: [UInt8]) {
        words = []
        bytes.withUnsafeBytes { buffer in
            for index in 0..<(buffer.count / MemoryLayout<UInt>.size) {
                let word = buffer.loadUnaligned(fromByteOffset: index * MemoryLayout<UInt>.size, as: UInt.self)
                for offset in 0..<UInt.bitWidth where word & (1 << UInt(offset)) != 0 {
                    insert(index * UInt.bitWidth + offset)
                }
            }
        }
        trimZeroWords()
    }

    /// Whether `bit` is set.
    package func contains(_ bit: Int) -> Bool {
        let word = bit / 64
        return bit >= 0 && word < words.count && words[word] & (1 << UInt64(bit % 64)) != 0
    }

    /// Whether no bit is set.
    package var isEmpty: Bool { words.isEmpty }

    /// The set bits, in ascending order.
    package var bits: [Int] {
        words.indices.flatMap { index in
            (0..<64).filter { words[index] & (1 << UInt64($0)) != 0 }.map { index * 64 + $0 }
        }
    }

    private mutating func insert(_ bit: Int) {
        guard bit >= 0, bit < Self.maximumBits else { return }
        while words.count <= bit / 64 { words.append(0) }
        words[bit / 64] |= 1 << UInt64(bit % 64)
    }

    private mutating func trimZeroWords() {
        while words.last == 0 { words.removeLast() }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}
