import VigilSensors

extension OperatingSystem {
    /// `VERSION_ID`'s leading `major.minor` as a number, read as node_exporter reads it for `node_os_version`.
    ///
    /// The number is the leading digits, then at most one dot and the digits after it: `24.04` gives 24.04, `3.23.2`
    /// gives 3.23, `2022.02` gives 2022.02, `10-beta` gives 10. It is nil when `VERSION_ID` is absent (a rolling
    /// release such as Arch or Gentoo), does not start with a digit (`rolling`), reads as 0, or is too long to be a
    /// finite number: node_exporter exports no sample for a version that is not above 0.
    var majorMinorVersion: Double? {
        guard let versionID else { return nil }
        let bytes = Array(versionID.utf8)
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        var end = bytes.prefix(while: isDigit).count
        guard end > 0 else { return nil }
        if end < bytes.count, bytes[end] == UInt8(ascii: ".") {
            let fraction = bytes[(end + 1)...].prefix(while: isDigit).count
            // "7." is 7: the dot counts only with digits after it.
            if fraction > 0 { end += 1 + fraction }
        }
        guard let value = Double(String(decoding: bytes[..<end], as: UTF8.self)), value.isFinite, value > 0 else {
            return nil
        }
        return value
    }
}
