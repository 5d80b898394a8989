/// One NMEA 0183 sentence whose checksum matched: its talker (`GP`, `GN`, …), its type (`RMC`, `GGA`, …) and its
/// fields as text.
///
/// Only the talkers and types a fix is made of are kept; any other sentence (proprietary `$P…`, `GLL`, `GNS`, AIS)
/// is not an error, just not used.
package struct NMEASentence: Sendable, Equatable {
    /// The sentence types a fix is made of.
    package enum Kind: String, Sendable, CaseIterable {
        case rmc = "RMC", gga = "GGA", gsa = "GSA", gsv = "GSV", vtg = "VTG", gst = "GST", zda = "ZDA"
    }

    /// The talkers read: GPS, GLONASS, Galileo, BeiDou (both spellings), QZSS, and combined.
    package static let talkers: Set<String> = ["GP", "GL", "GA", "GB", "BD", "GQ", "GN"]

    /// Who sent it, for example `GN`.
    package let talker: String
    /// What it says.
    package let kind: Kind
    /// The fields after the address, without the checksum; an empty field is an empty string.
    package let fields: [Substring]

    /// Parses the bytes between `$` and the line end, `GPGGA,…*hh`: nil when the checksum is missing or wrong, or
    /// the talker or type is not one read.
    ///
    /// The checksum is the XOR of every byte between `$` and `*`, as two hex digits of either case.
    package init?(body: some Collection<UInt8>) {
        let bytes = Array(body)
        guard bytes.count >= 9, let star = bytes.lastIndex(of: UInt8(ascii: "*")), star == bytes.count - 3,
            let high = Self.hexValue(bytes[star + 1]), let low = Self.hexValue(bytes[star + 2]),
            bytes[..<star].reduce(0, ^) == high << 4 | low
        else { return nil }
        let text = String(decoding: bytes[..<star], as: UTF8.self)
        var parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let address = parts.removeFirst()
        guard address.count == 5, Self.talkers.contains(String(address.prefix(2))),
            let kind = Kind(rawValue: String(address.suffix(3)))
        else { return nil }
        talker = String(address.prefix(2))
        self.kind = kind
        fields = parts
    }

    /// The field at `index` (counting from 0 after the address), or an empty one past the end.
    package subscript(index: Int) -> Substring {
        index < fields.count ? fields[index] : ""
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}
