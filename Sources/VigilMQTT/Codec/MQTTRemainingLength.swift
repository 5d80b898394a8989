/// The fixed header's remaining-length field: 7 bits a byte, low bits first, the high bit saying "more follows", at
/// most four bytes (MQTT 3.1.1 §2.2.3).
enum MQTTRemainingLength {
    /// The largest length four bytes hold: 268,435,455.
    static let maximum = 268_435_455

    /// Appends `length`'s encoding to `bytes`.
    static func append(_ length: Int, to bytes: inout [UInt8]) {
        precondition(length >= 0 && length <= maximum, "remaining length \(length) out of range")
        var rest = length
        repeat {
            var byte = UInt8(rest & 0x7F)
            rest >>= 7
            if rest > 0 { byte |= 0x80 }
            bytes.append(byte)
        } while rest > 0
    }

    /// The length encoded at the start of `bytes` and how many bytes it took, or nil when more bytes are needed.
    ///
    /// - Throws: ``MQTTProtocolError/malformedRemainingLength`` when a fourth byte still says more follows.
    static func decode(_ bytes: ArraySlice<UInt8>) throws(MQTTProtocolError) -> (length: Int, size: Int)? {
        var length = 0
        var shift = 0
        for (offset, byte) in bytes.enumerated() {
            length |= Int(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return (length, offset + 1) }
            shift += 7
            if offset == 3 { throw .malformedRemainingLength }
        }
        return nil
    }
}
