/// One network interface's traffic counters since it was created, as rtnetlink reports them with the link
/// (`IFLA_STATS64`, else the 32-bit `IFLA_STATS`): what `ip -s link` and node_exporter's netdev collector show.
///
/// The kernel announces no change of a counter; a ``NetworkMonitor`` reads them again on its
/// ``NetworkMonitor/updateInterval`` while someone subscribes, and with every link message and dump.
public struct InterfaceTraffic: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// Bytes, packets, errors and drops received.
    public var receive: Counters
    /// Bytes, packets, errors and drops sent.
    public var transmit: Counters

    /// One direction's counters.
    public struct Counters: Hashable, Sendable, Encodable {
        /// Bytes.
        public var bytes: UInt64
        /// Packets.
        public var packets: UInt64
        /// Packets with errors (`rx_errors`, `tx_errors`).
        public var errors: UInt64
        /// Packets dropped (`rx_dropped`, `tx_dropped`: no room, no use for them).
        public var dropped: UInt64

        /// Creates one direction's counters.
        public init(bytes: UInt64, packets: UInt64, errors: UInt64 = 0, dropped: UInt64 = 0) {
            self.bytes = bytes
            self.packets = packets
            self.errors = errors
            self.dropped = dropped
        }
    }

    /// Creates the counters of an interface.
    public init(receive: Counters, transmit: Counters) {
        self.receive = receive
        self.transmit = transmit
    }

    /// For example `rx 1200 B 10 pkt, tx 800 B 8 pkt` (errors and drops only when there are any).
    public var description: String {
        func side(_ name: String, _ counters: Counters) -> String {
            var text = "\(name) \(counters.bytes) B \(counters.packets) pkt"
            if counters.errors > 0 { text += " \(counters.errors) err" }
            if counters.dropped > 0 { text += " \(counters.dropped) drop" }
            return text
        }
        return side("rx", receive) + ", " + side("tx", transmit)
    }

    /// The counters in a `struct rtnl_link_stats64` (`fieldSize` 8) or `struct rtnl_link_stats` (`fieldSize` 4), or
    /// `nil` when the payload is too short to hold the eight counters read.
    ///
    /// Both structs begin with `rx_packets, tx_packets, rx_bytes, tx_bytes, rx_errors, tx_errors, rx_dropped,
    /// tx_dropped`; kernels append fields over time (`rx_nohandler`, `rx_otherhost_dropped`), so a longer payload is
    /// read for its first eight, and one shorter than those is left out rather than guessed at.
    ///
    /// - Parameters:
    ///   - payload: The attribute's payload, native-endian as the kernel writes it.
    ///   - fieldSize: 8 for `IFLA_STATS64`, 4 for `IFLA_STATS`.
    package init?(linkStatistics payload: [UInt8], fieldSize: Int) {
        guard fieldSize == 4 || fieldSize == 8, payload.count >= 8 * fieldSize else { return nil }
        let fields = payload.withUnsafeBytes { raw in
            (0..<8).map { index in
                fieldSize == 8
                    ? raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)
                    : UInt64(raw.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
            }
        }
        receive = Counters(bytes: fields[2], packets: fields[0], errors: fields[4], dropped: fields[6])
        transmit = Counters(bytes: fields[3], packets: fields[1], errors: fields[5], dropped: fields[7])
    }
}
