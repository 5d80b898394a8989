/// Bounds-checked reads of native-endian integers from a byte buffer, as netlink messages carry them.
///
/// Every read returns `nil` instead of trapping when it would run past the end, so a parser built on it cannot crash
/// on truncated or random input.
struct NetlinkBytes {
    let buffer: UnsafeRawBufferPointer

    init(_ buffer: UnsafeRawBufferPointer) { self.buffer = buffer }

    var count: Int { buffer.count }

    /// Reads a `T` at `offset`, or `nil` when `offset ..< offset + size` is not inside the buffer.
    func load<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) -> T? {
        guard offset >= 0, offset <= buffer.count - MemoryLayout<T>.size else { return nil }
        return buffer.loadUnaligned(fromByteOffset: offset, as: T.self)
    }

    /// The bytes in `range`, or `nil` when the range is not inside the buffer.
    func bytes(_ range: Range<Int>) -> [UInt8]? {
        guard range.lowerBound >= 0, range.upperBound <= buffer.count else { return nil }
        return Array(buffer[range])
    }

    /// The text in `range` up to its first NUL byte, or `nil` when the range is not inside the buffer.
    func string(_ range: Range<Int>) -> String? {
        guard let raw = bytes(range) else { return nil }
        let end = raw.firstIndex(of: 0) ?? raw.endIndex
        return String(decoding: raw[..<end], as: UTF8.self)
    }

    /// Rounds `length` up to the 4-byte alignment netlink uses (`NLMSG_ALIGN`, `RTA_ALIGN`).
    static func align(_ length: Int) -> Int { (length + 3) & ~3 }
}
