/// The bytes of a receiver cut into NMEA sentences: a value type that takes bytes in and hands checked sentences
/// out, with bounded memory whatever arrives.
///
/// A sentence starts at `$` and ends at CR or LF. Every `$` starts afresh, so binary frames interleaved in the stream
/// (u-blox UBX, SiRF) are skipped by resynchronizing at the next `$`: a byte that is not printable ASCII, or a
/// sentence longer than ``maximumLength``, abandons the sentence under way. At most ``maximumLength`` bytes are ever
/// kept, even for megabytes without a newline.
package struct NMEAStream: Sendable {
    /// The longest sentence kept, `$` and line end excluded: NMEA allows 80 characters; receivers with extra fields
    /// write longer ones, so there is room to spare.
    package static let maximumLength = 200

    private var body: [UInt8] = []
    private var inSentence = false
    /// Sentences abandoned or refused (too long, binary inside, wrong checksum), since the start.
    package private(set) var rejected = 0

    package init() {}

    /// How many bytes of an unfinished sentence are kept.
    package var pendingByteCount: Int { body.count }

    /// Takes the bytes of one read and returns the sentences they complete, in order.
    package mutating func consume(_ bytes: some Sequence<UInt8>) -> [NMEASentence] {
        var sentences: [NMEASentence] = []
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "$"):
                if inSentence { rejected += 1 }
                body.removeAll(keepingCapacity: true)
                inSentence = true
            case UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                guard inSentence else { continue }
                inSentence = false
                if let sentence = NMEASentence(body: body) {
                    sentences.append(sentence)
                } else {
                    rejected += 1
                }
                body.removeAll(keepingCapacity: true)
            case 0x20...0x7E where inSentence:
                if body.count == Self.maximumLength {
                    abandon()
                } else {
                    body.append(byte)
                }
            default:
                if inSentence { abandon() }
            }
        }
        return sentences
    }

    private mutating func abandon() {
        inSentence = false
        rejected += 1
        body.removeAll(keepingCapacity: true)
    }
}
