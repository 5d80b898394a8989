/// Why bytes are not an EDID whose base block can be decoded.
///
/// Only the base block can make a decode fail; a short or corrupt extension block becomes a note on the ``EDID``.
package enum EDIDError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Fewer than the 128 bytes of a base block.
    case truncated(length: Int)
    /// The first eight bytes are not the header `00 FF FF FF FF FF FF 00`.
    case badHeader
    /// The base block's 128 bytes do not add up to 0 modulo 256; `sum` is what they add up to.
    case badChecksum(sum: UInt8)

    package var description: String {
        switch self {
        case .truncated(let length):
            return "the EDID is truncated: \(length) bytes, a base block needs 128"
        case .badHeader:
            return "not an EDID: the header is not 00 FF FF FF FF FF FF 00"
        case .badChecksum(let sum):
            return "the EDID's base block checksum is wrong (its bytes add up to \(sum), not 0, modulo 256)"
        }
    }
}
