extension EDID {
    /// The size of one EDID block in bytes.
    package static let blockSize = 128

    /// The most bytes an EDID can hold: a base block and 255 extension blocks (the count is one byte).
    package static let maximumSize = 256 * blockSize

    /// Decodes an EDID from its bytes, as `/sys/class/drm/card*-*/edid` gives them; pure and bounded.
    ///
    /// Only the base block must be whole and valid. The extension blocks the base block counts (byte 126) are read
    /// as far as the bytes go: a missing block, a wrong extension checksum, and bytes past the last counted block
    /// (some probes read a wrapping EEPROM twice) are named in ``notes`` and never read further.
    ///
    /// - Throws: ``EDIDError/truncated(length:)`` for fewer than 128 bytes, ``EDIDError/badHeader`` and
    ///   ``EDIDError/badChecksum(sum:)`` for a base block that is not an EDID's.
    package static func decode(_ bytes: some Collection<UInt8>) throws(EDIDError) -> EDID {
        let data = Array(bytes.prefix(maximumSize + 1))
        guard data.count >= blockSize else { throw .truncated(length: data.count) }
        guard data[0..<8].elementsEqual([0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]) else { throw .badHeader }
        let sum = checksum(data[0..<blockSize])
        guard sum == 0 else { throw .badChecksum(sum: sum) }

        var notes: [String] = []
        let version = (Int(data[18]), Int(data[19]))
        let descriptors = Descriptors(data)
        return EDID(
            version: "\(version.0).\(version.1)",
            manufacturer: manufacturerID(data[8], data[9], notes: &notes),
            productCode: Int(data[10]) | Int(data[11]) << 8,
            serialNumber: serial(data[12...15]),
            serialText: descriptors.serial,
            manufactured: manufacture(week: data[16], year: data[17], notes: &notes),
            input: videoInput(data[20], version: version),
            size: PhysicalSize.decode(horizontal: data[21], vertical: data[22], version: version, notes: &notes),
            name: descriptors.name,
            texts: descriptors.texts,
            extensionCount: Int(data[126]),
            extensions: extensionBlocks(data, count: Int(data[126]), notes: &notes),
            notes: notes)
    }

    /// What the bytes of `block` add up to, modulo 256.
    private static func checksum(_ block: ArraySlice<UInt8>) -> UInt8 {
        block.reduce(0, &+)
    }

    /// The three letters packed five bits each into bytes 8–9 (big-endian), 1 = `A`; out-of-range letters are `?`.
    private static func manufacturerID(_ high: UInt8, _ low: UInt8, notes: inout [String]) -> String {
        let packed = Int(high) << 8 | Int(low)
        let codes = [(packed >> 10) & 0x1F, (packed >> 5) & 0x1F, packed & 0x1F]
        let letters = codes.map { code in
            (1...26).contains(code) ? Character(Unicode.Scalar(UInt8(64 + code))) : "?"
        }
        let id = String(letters)
        if id.contains("?") { notes.append("manufacturer id bytes \(hex(packed, digits: 4)) are not three letters") }
        return id
    }

    private static func serial(_ bytes: ArraySlice<UInt8>) -> UInt32? {
        let value = bytes.reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return value == 0 ? nil : value
    }

    /// Week byte 0 = no week, 1...54 a week, 255 = the year is a model year, anything else invalid (noted).
    private static func manufacture(week: UInt8, year: UInt8, notes: inout [String]) -> Manufacture {
        let fullYear = 1990 + Int(year)
        switch week {
        case 0: return Manufacture(week: nil, year: fullYear, isModelYear: false)
        case 1...54: return Manufacture(week: Int(week), year: fullYear, isModelYear: false)
        case 255: return Manufacture(week: nil, year: fullYear, isModelYear: true)
        default:
            notes.append("week of manufacture \(week) is not a week (1–54); only the year \(fullYear) is kept")
            return Manufacture(week: nil, year: fullYear, isModelYear: false)
        }
    }

    /// Byte 20: bit 7 digital; for EDID 1.4 digital inputs, bits 6–4 the colour depth and bits 3–0 the interface.
    private static func videoInput(_ byte: UInt8, version: (Int, Int)) -> VideoInput {
        guard byte & 0x80 != 0 else { return VideoInput(isDigital: false, bitsPerColor: nil, interface: nil) }
        guard version >= (1, 4) else { return VideoInput(isDigital: true, bitsPerColor: nil, interface: nil) }
        let depth = Int(byte >> 4) & 0x7
        let interfaces = [1: "DVI", 2: "HDMI-a", 3: "HDMI-b", 4: "MDDI", 5: "DisplayPort"]
        return VideoInput(
            isDigital: true, bitsPerColor: (1...6).contains(depth) ? 4 + 2 * depth : nil,
            interface: interfaces[Int(byte & 0x0F)])
    }

    /// The extension blocks present after the base block, at most `count`; what is missing or extra is noted.
    private static func extensionBlocks(_ data: [UInt8], count: Int, notes: inout [String]) -> [ExtensionBlock] {
        let present = min(count, data.count / blockSize - 1)
        if present < count {
            notes.append("truncated: \(present) of \(count) extension blocks present")
        }
        let used = (1 + present) * blockSize
        if present == count && data.count > used {
            let extra = data.count > maximumSize ? "at least \(data.count - used)" : "\(data.count - used)"
            notes.append("\(extra) bytes after the last extension block ignored")
        }
        return (0..<present).map { index in
            let start = (1 + index) * blockSize
            let block = data[start..<start + blockSize]
            let valid = checksum(block) == 0
            if !valid { notes.append("extension block \(index + 1) has a wrong checksum") }
            return extensionBlock(block, checksumIsValid: valid)
        }
    }

    private static func extensionBlock(_ block: ArraySlice<UInt8>, checksumIsValid: Bool) -> ExtensionBlock {
        let tag = block[block.startIndex]
        let second = block[block.startIndex + 1]
        let kinds: [UInt8: String] = [
            0x02: "CTA-861", 0x10: "VTB", 0x40: "DI", 0x50: "LS", 0x60: "DPVL", 0x70: "DisplayID", 0xF0: "block map",
            0xFF: "manufacturer",
        ]
        let revision: String? =
            switch tag {
            case 0x02: String(second)
            case 0x70: "\(second >> 4).\(second & 0x0F)"
            default: nil
            }
        return ExtensionBlock(
            tag: tag, kind: kinds[tag] ?? "unknown " + hex(Int(tag), digits: 2), revision: revision,
            checksumIsValid: checksumIsValid)
    }
}

/// The four 18-byte descriptors of a base block (bytes 54–125): the strings a display names itself with.
private struct Descriptors {
    var name: String?
    var serial: String?
    var texts: [String] = []

    init(_ data: [UInt8]) {
        for start in stride(from: 54, to: 126, by: 18) {
            // A display descriptor starts 00 00 00 tag; anything else there is a detailed timing.
            guard data[start] == 0, data[start + 1] == 0, data[start + 2] == 0 else { continue }
            let text = Self.text(data[(start + 5)..<(start + 18)])
            switch data[start + 3] {
            case 0xFC: name = name ?? text
            case 0xFF: serial = serial ?? text
            case 0xFE: if let text { texts.append(text) }
            default: continue
            }
        }
    }

    /// A descriptor's up to 13 bytes of text: up to the first 0x0A, trailing spaces removed, printable ASCII kept
    /// and anything else shown as U+FFFD; `nil` when nothing is left.
    private static func text(_ bytes: ArraySlice<UInt8>) -> String? {
        let stored = bytes.prefix { $0 != 0x0A }
        var scalars = String.UnicodeScalarView()
        for byte in stored { scalars.append((0x20...0x7E).contains(byte) ? Unicode.Scalar(byte) : "\u{FFFD}") }
        var text = String(scalars)
        while text.last == " " { text.removeLast() }
        return text.isEmpty ? nil : text
    }
}
