/// A display's identity as its EDID (VESA Extended Display Identification Data) states it.
///
/// Decoded from the base block (manufacturer, product, serial, date, version, input, size, descriptors) and the tags
/// of the extension blocks that follow it. Values that cannot be true (a week 239, a size that is
/// an aspect ratio) are kept as stated where that makes sense and named in ``notes``; a serial number of 0 and a
/// week of 0 mean "not given" and are `nil`.
public struct EDID: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The EDID structure version, for example `1.4`.
    public let version: String
    /// The manufacturer's three-letter PNP id, for example `DEL` (letters that are out of range show as `?`).
    public let manufacturer: String
    /// The manufacturer's product code (bytes 10–11).
    public let productCode: Int
    /// The 32-bit serial number (bytes 12–15); `nil` when 0 (not given).
    public let serialNumber: UInt32?
    /// The serial number descriptor (tag `0xFF`), trailing spaces removed; `nil` without one.
    public let serialText: String?
    /// When the display was made, or its model year.
    public let manufactured: Manufacture
    /// How the display takes its signal.
    public let input: VideoInput
    /// The screen's physical size, or its aspect ratio, or neither.
    public let size: PhysicalSize
    /// The monitor name descriptor (tag `0xFC`), trailing spaces removed; `nil` without one (most laptop panels).
    public let name: String?
    /// The unspecified text descriptors (tag `0xFE`), in order, trailing spaces removed; laptop panels put their
    /// maker and model here.
    public let texts: [String]
    /// The extension count the base block states (byte 126).
    public let extensionCount: Int
    /// The extension blocks present, in order; fewer than ``extensionCount`` when the data is truncated.
    public let extensions: [ExtensionBlock]
    /// What is not as the standard wants, one line each: an invalid week, an implausible size, a letter out of
    /// range, a truncated or over-long blob, a wrong extension checksum. Empty normally.
    public let notes: [String]

    /// When a display was made.
    public struct Manufacture: Sendable, Equatable, Encodable {
        /// The week of manufacture, 1...54; `nil` when not given, invalid, or when ``year`` is a model year.
        public let week: Int?
        /// The year of manufacture, or the model year when ``isModelYear``.
        public let year: Int
        /// Whether ``year`` is a model year (week byte `0xFF`) rather than the year of manufacture.
        public let isModelYear: Bool
    }

    /// How a display takes its signal (byte 20).
    public struct VideoInput: Sendable, Equatable, Encodable {
        /// Digital (true) or analog (false).
        public let isDigital: Bool
        /// Bits per colour channel of a digital input (EDID 1.4); `nil` when undefined or analog.
        public let bitsPerColor: Int?
        /// The digital interface (EDID 1.4): `DVI`, `HDMI-a`, `HDMI-b`, `MDDI` or `DisplayPort`; `nil` when undefined.
        public let interface: String?
    }

    /// One extension block: its tag and what it is.
    public struct ExtensionBlock: Sendable, Equatable, Encodable {
        /// The block's tag (byte 0), for example `0x02` for CTA-861 or `0x70` for DisplayID.
        public let tag: UInt8
        /// The tag's name (`CTA-861`, `DisplayID`, `VTB`, `block map`, …), or `unknown 0xNN`.
        public let kind: String
        /// The revision of a CTA-861 block (`3`) or the version of a DisplayID block (`1.2`, `2.0`); `nil` otherwise.
        public let revision: String?
        /// Whether the block's 128 bytes add up to 0 modulo 256.
        public let checksumIsValid: Bool
    }

    public var description: String {
        var parts = [([manufacturer] + [name ?? texts.last].compactMap { $0 }).joined(separator: " ")]
        parts.append("product " + Self.hex(productCode, digits: 4))
        parts.append(size.description)
        if manufactured.isModelYear {
            parts.append("model year \(manufactured.year)")
        } else if let week = manufactured.week {
            parts.append("made week \(week) of \(manufactured.year)")
        } else {
            parts.append("made \(manufactured.year)")
        }
        parts.append("EDID \(version) " + (input.isDigital ? input.interface ?? "digital" : "analog"))
        if !extensions.isEmpty { parts.append("extensions " + extensions.map(\.kind).joined(separator: ", ")) }
        if !notes.isEmpty { parts.append("[" + notes.joined(separator: "; ") + "]") }
        return parts.joined(separator: ", ")
    }

    /// `value` as `0x` and upper-case hex digits, zero-padded to `digits`.
    static func hex(_ value: Int, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
