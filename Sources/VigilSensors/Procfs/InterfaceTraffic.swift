/// One network interface's traffic counters since it was created, from `<proc>/net/dev`: what `ip -s link` and
/// node_exporter's netdev collector show.
///
/// The counters are those of the network namespace of whoever reads the file: `/proc/net/dev` for the reader's own,
/// `/proc/PID/net/dev` for that process's.
public struct InterfaceTraffic: Sendable, Equatable, Encodable {
    /// The interface name.
    public let name: String
    /// Bytes, packets, errors and drops received.
    public let receive: Counters
    /// Bytes, packets, errors and drops sent.
    public let transmit: Counters

    /// One direction's counters.
    public struct Counters: Sendable, Equatable, Encodable {
        /// Bytes.
        public let bytes: UInt64
        /// Packets.
        public let packets: UInt64
        /// Packets with errors.
        public let errors: UInt64
        /// Packets dropped (no room, no use for them).
        public let dropped: UInt64
    }

    /// Reads `<root>/net/dev`.
    ///
    /// - Throws: ``SensorError`` when the file cannot be read or its header is not the kernel's.
    public static func read(procRoot root: String = "/proc") throws(SensorError) -> [InterfaceTraffic] {
        let path = root + "/net/dev"
        return try parse(try SysfsFile.readProcfsText(path), path: path)
    }

    /// Parses `/proc/net/dev` text: two header lines, then `NAME: 8 receive counters 8 transmit counters` a line.
    ///
    /// A line that is not so is left out (one interface, not the whole reading).
    ///
    /// - Throws: ``SensorError/malformedValue(path:text:expected:)`` when the header is not the kernel's.
    package static func parse(_ text: String, path: String = "/proc/net/dev") throws(SensorError)
        -> [InterfaceTraffic]
    {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 2, lines[0].hasPrefix("Inter-|"), lines[1].contains("|bytes") else {
            throw .malformedValue(path: path, text: String(text.prefix(64)), expected: "the /proc/net/dev header")
        }
        return lines.dropFirst(2).compactMap { line in
            // Interface names hold no colon or space (dev_valid_name), so the first colon ends the name.
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = line[..<colon].drop { $0 == " " }
            let numbers = line[line.index(after: colon)...].split(separator: " ").compactMap { UInt64($0) }
            guard !name.isEmpty, numbers.count == 16 else { return nil }
            return InterfaceTraffic(
                name: String(name),
                receive: Counters(bytes: numbers[0], packets: numbers[1], errors: numbers[2], dropped: numbers[3]),
                transmit: Counters(bytes: numbers[8], packets: numbers[9], errors: numbers[10], dropped: numbers[11]))
        }
    }
}
