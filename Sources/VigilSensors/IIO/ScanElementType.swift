/// The storage format of one IIO scan element, as the kernel writes it in `scan_elements/*_type`.
///
/// The text has the form `[be|le]:[s|u]bits/storagebits[Xrepeat]>>shift`, for example `le:s12/16>>4`: a
/// little-endian 16-bit slot whose bits 4…15 hold a signed 12-bit value. The value is read from `storageBits`,
/// shifted right by `shift`, masked to `bits` and, when signed, sign-extended. A `repeat` above 1 means the element
/// holds that many values one after the other (a quaternion is `le:s16/16X4>>0`).
package struct ScanElementType: Hashable, Sendable, CustomStringConvertible {
    /// The byte order of the storage slot.
    package enum ByteOrder: String, Hashable, Sendable {
        /// Least significant byte first (`le`).
        case littleEndian = "le"
        /// Most significant byte first (`be`).
        case bigEndian = "be"
    }

    /// The byte order of the storage slot.
    package let byteOrder: ByteOrder
    /// Whether the value is two's-complement signed (`s`) rather than unsigned (`u`).
    package let isSigned: Bool
    /// The number of significant bits, 1…64.
    package let bits: Int
    /// The size of the storage slot in bits: 8, 16, 32 or 64.
    package let storageBits: Int
    /// How many values the element holds; 1 unless the type says `Xrepeat`.
    package let repeatCount: Int
    /// How far to shift the slot right before masking.
    package let shift: Int

    /// Creates a type from its parts, checking that they describe a slot the decoder can read.
    ///
    /// - Throws: ``SensorError/malformedValue(path:text:expected:)`` with an empty path when the parts are
    ///   inconsistent (bits plus shift larger than the storage, an unsupported storage size, a zero repeat).
    package init(
        byteOrder: ByteOrder, isSigned: Bool, bits: Int, storageBits: Int, repeatCount: Int = 1, shift: Int = 0
    ) throws(SensorError) {
        if let problem = Self.problem(bits: bits, storageBits: storageBits, repeatCount: repeatCount, shift: shift) {
            let text = Self.format(byteOrder, isSigned, bits, storageBits, repeatCount, shift)
            throw SensorError.malformedValue(path: "", text: text, expected: Self.expected + " (\(problem))")
        }
        self.byteOrder = byteOrder
        self.isSigned = isSigned
        self.bits = bits
        self.storageBits = storageBits
        self.repeatCount = repeatCount
        self.shift = shift
    }

    /// Parses the text of a `*_type` file.
    ///
    /// Leading and trailing white space is ignored. The `>>shift` part may be missing (shift 0).
    ///
    /// - Parameters:
    ///   - text: The file's content, for example `le:s16/32>>0`.
    ///   - path: The file the text came from, named in the error.
    /// - Throws: ``SensorError/malformedValue(path:text:expected:)`` naming the path and what was wrong.
    package init(parsing text: String, path: String = "") throws(SensorError) {
        let trimmed = text.trimmingWhitespace()
        guard let parts = Self.parts(of: trimmed) else {
            throw SensorError.malformedValue(path: path, text: text, expected: Self.expected)
        }
        if let problem = Self.problem(
            bits: parts.bits, storageBits: parts.storageBits, repeatCount: parts.repeatCount, shift: parts.shift)
        {
            throw SensorError.malformedValue(path: path, text: text, expected: Self.expected + " (\(problem))")
        }
        byteOrder = parts.byteOrder
        isSigned = parts.isSigned
        bits = parts.bits
        storageBits = parts.storageBits
        repeatCount = parts.repeatCount
        shift = parts.shift
    }

    /// The size of one value's storage slot in bytes.
    package var storageBytes: Int { storageBits / 8 }

    /// The size of the whole element (all repeats) in bytes.
    package var totalBytes: Int { storageBytes * repeatCount }

    /// The type in the kernel's text form, for example `le:s12/16>>4` or `le:s16/16X4>>0`.
    package var description: String {
        Self.format(byteOrder, isSigned, bits, storageBits, repeatCount, shift)
    }

    private static let expected =
        "a scan element type like le:s12/16>>4 ([be|le]:[s|u]bits/storagebits[Xrepeat]>>shift)"

    private struct Parts {
        var byteOrder: ByteOrder
        var isSigned: Bool
        var bits: Int
        var storageBits: Int
        var repeatCount: Int
        var shift: Int
    }

    private static func parts(of text: String) -> Parts? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 7, utf8[2] == UInt8(ascii: ":") else { return nil }
        guard let byteOrder = ByteOrder(rawValue: String(decoding: utf8[0..<2], as: UTF8.self)) else { return nil }
        let isSigned: Bool
        switch utf8[3] {
        case UInt8(ascii: "s"): isSigned = true
        case UInt8(ascii: "u"): isSigned = false
        default: return nil
        }
        var cursor = 4
        guard let bits = number(utf8, &cursor), cursor < utf8.count, utf8[cursor] == UInt8(ascii: "/") else {
            return nil
        }
        cursor += 1
        guard let storageBits = number(utf8, &cursor) else { return nil }
        var repeatCount = 1
        if cursor < utf8.count, utf8[cursor] == UInt8(ascii: "X") {
            cursor += 1
            guard let count = number(utf8, &cursor) else { return nil }
            repeatCount = count
        }
        var shift = 0
        if cursor < utf8.count {
            guard cursor + 2 < utf8.count, utf8[cursor] == UInt8(ascii: ">"), utf8[cursor + 1] == UInt8(ascii: ">")
            else { return nil }
            cursor += 2
            guard let value = number(utf8, &cursor) else { return nil }
            shift = value
        }
        guard cursor == utf8.count else { return nil }
        return Parts(
            byteOrder: byteOrder, isSigned: isSigned, bits: bits, storageBits: storageBits, repeatCount: repeatCount,
            shift: shift)
    }

    /// Reads up to four decimal digits at `cursor`; nil when there are none or more than four.
    private static func number(_ utf8: [UInt8], _ cursor: inout Int) -> Int? {
        var value = 0
        var digits = 0
        while cursor < utf8.count, utf8[cursor] >= UInt8(ascii: "0"), utf8[cursor] <= UInt8(ascii: "9") {
            value = value * 10 + Int(utf8[cursor] - UInt8(ascii: "0"))
            digits += 1
            cursor += 1
            if digits > 4 { return nil }
        }
        return digits == 0 ? nil : value
    }

    private static func problem(bits: Int, storageBits: Int, repeatCount: Int, shift: Int) -> String? {
        if ![8, 16, 32, 64].contains(storageBits) { return "storage must be 8, 16, 32 or 64 bits" }
        if bits < 1 { return "at least one significant bit" }
        if shift < 0 || bits + shift > storageBits { return "bits plus shift must fit in the storage" }
        if repeatCount < 1 || repeatCount > 1024 { return "repeat must be 1…1024" }
        return nil
    }

    private static func format(
        _ byteOrder: ByteOrder, _ isSigned: Bool, _ bits: Int, _ storageBits: Int, _ repeatCount: Int, _ shift: Int
    ) -> String {
        let sign = isSigned ? "s" : "u"
        let repeatPart = repeatCount > 1 ? "X\(repeatCount)" : ""
        return "\(byteOrder.rawValue):\(sign)\(bits)/\(storageBits)\(repeatPart)>>\(shift)"
    }
}
