/// How fast an interface moves traffic: bytes and packets per second each way, between two readings of its
/// ``InterfaceTraffic`` counters.
///
/// A ``NetworkMonitor`` publishes counters, not rates; a reader that keeps its previous reading (as `vigil watch` and
/// `vigil top` do) gets rates from ``init(from:to:over:)``.
public struct TrafficRates: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// Bytes received per second.
    public var receiveBytesPerSecond: Double
    /// Packets received per second.
    public var receivePacketsPerSecond: Double
    /// Bytes sent per second.
    public var transmitBytesPerSecond: Double
    /// Packets sent per second.
    public var transmitPacketsPerSecond: Double

    /// Creates rates from their values.
    public init(
        receiveBytesPerSecond: Double, receivePacketsPerSecond: Double, transmitBytesPerSecond: Double,
        transmitPacketsPerSecond: Double
    ) {
        self.receiveBytesPerSecond = receiveBytesPerSecond
        self.receivePacketsPerSecond = receivePacketsPerSecond
        self.transmitBytesPerSecond = transmitBytesPerSecond
        self.transmitPacketsPerSecond = transmitPacketsPerSecond
    }

    /// The rates between two readings of one interface's counters, `elapsed` apart; `nil` when there is no rate to
    /// give: no time passed, or a counter went backwards (the interface was re-created, or a 32-bit counter wrapped),
    /// so the later reading starts a new rate instead of giving a negative or huge one.
    ///
    /// - Parameters:
    ///   - earlier: The first reading's counters.
    ///   - later: The second reading's counters.
    ///   - elapsed: The time between the two readings.
    public init?(from earlier: InterfaceTraffic, to later: InterfaceTraffic, over elapsed: Duration) {
        let (seconds, attoseconds) = elapsed.components
        let interval = Double(seconds) + Double(attoseconds) * 1e-18
        guard interval > 0 else { return nil }
        let pairs = [
            (earlier.receive.bytes, later.receive.bytes), (earlier.receive.packets, later.receive.packets),
            (earlier.transmit.bytes, later.transmit.bytes), (earlier.transmit.packets, later.transmit.packets),
        ]
        guard pairs.allSatisfy({ $0.0 <= $0.1 }) else { return nil }
        let rates = pairs.map { Double($0.1 - $0.0) / interval }
        self.init(
            receiveBytesPerSecond: rates[0], receivePacketsPerSecond: rates[1], transmitBytesPerSecond: rates[2],
            transmitPacketsPerSecond: rates[3])
    }

    /// Bytes per second both ways.
    public var bytesPerSecond: Double { receiveBytesPerSecond + transmitBytesPerSecond }

    /// For example `rx 1.2 MB/s 830 pkt/s, tx 45.0 kB/s 410 pkt/s` (decimal units, as `ip -h` and btop show).
    public var description: String {
        "rx \(Self.bytes(receiveBytesPerSecond))/s \(Self.count(receivePacketsPerSecond)) pkt/s, "
            + "tx \(Self.bytes(transmitBytesPerSecond))/s \(Self.count(transmitPacketsPerSecond)) pkt/s"
    }

    /// A byte count in decimal units, one decimal from kB up: `512 B`, `1.2 kB`, `3.4 GB`.
    package static func bytes(_ value: Double) -> String {
        let units = ["B", "kB", "MB", "GB", "TB", "PB"]
        var scaled = value.isFinite ? max(value, 0) : 0
        var unit = 0
        while scaled >= 999.95, unit + 1 < units.count {
            scaled /= 1000
            unit += 1
        }
        return unit == 0 ? "\(Int(scaled.rounded())) B" : "\(tenths(scaled)) \(units[unit])"
    }

    /// A rate of things (packets) rounded to a whole number below 1,000, then `1.2k`, `3.4M`.
    package static func count(_ value: Double) -> String {
        let scaled = value.isFinite ? max(value, 0) : 0
        if scaled < 999.5 { return "\(Int(scaled.rounded()))" }
        if scaled < 999_950 { return tenths(scaled / 1000) + "k" }
        return tenths(min(scaled / 1_000_000, 1e12)) + "M"
    }

    private static func tenths(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}

/// Turns successive ``NetworkPath`` readings into rates: keeps each interface's last counters and when they were
/// read, and sets ``NetworkInterface/rates`` on the next reading.
///
/// An interface gets rates from its second reading on; one whose counters went backwards, or that came back under
/// another name, starts over with no rate. Counters that moved in a reading closer than ``shortestInterval`` to the
/// one the rates are measured from keep the rates already given, so a link message just after a poll cannot turn a
/// few packets into a huge rate; counters still since the last reading give a rate of zero. It is a pure value: the caller passes each reading's time, from `ReadingTime.monotonic` or a test's
/// clock.
package struct TrafficRateMeter<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    private struct Baseline {
        var name: BytePath
        /// The counters the next rate is measured from, and when they were read.
        var traffic: InterfaceTraffic
        var time: Instant
        var rates: TrafficRates?
        /// The counters of the latest reading (newer than `traffic` when it was too close to give a rate).
        var latest: InterfaceTraffic
    }

    /// The shortest time between two readings that gives a new rate: far below the refresh intervals in use (1 s by
    /// default), so timer jitter never holds a reading back, and long enough that a few packets in a link message
    /// just after a refresh are no spike.
    package static var shortestInterval: Duration { .milliseconds(50) }

    private var baselines: [Int: Baseline] = [:]

    /// Creates a meter that has seen nothing.
    package init() {}

    /// `path` with the rates of each interface since the reading the meter measured it from, which `path` then
    /// replaces (see the type's discussion).
    ///
    /// - Parameters:
    ///   - path: The new reading.
    ///   - time: When it was taken.
    package mutating func measure(_ path: NetworkPath, at time: Instant) -> NetworkPath {
        var measured = path
        var next: [Int: Baseline] = [:]
        for (position, interface) in path.interfaces.enumerated() {
            guard let traffic = interface.traffic else { continue }
            var baseline = Baseline(name: interface.nameBytes, traffic: traffic, time: time, latest: traffic)
            if let previous = baselines[interface.index], previous.name == interface.nameBytes {
                let elapsed = previous.time.duration(to: time)
                if traffic == previous.latest, elapsed > .zero {
                    // Nothing moved since the last reading: the rate is zero, however close the readings.
                    baseline.rates = TrafficRates(from: traffic, to: traffic, over: elapsed)
                } else if elapsed < Self.shortestInterval, Self.isAhead(traffic, of: previous.traffic) {
                    baseline = previous
                    baseline.latest = traffic
                } else {
                    baseline.rates = TrafficRates(from: previous.traffic, to: traffic, over: elapsed)
                }
            }
            measured.interfaces[position].rates = baseline.rates
            next[interface.index] = baseline
        }
        baselines = next
        return measured
    }

    private static func isAhead(_ traffic: InterfaceTraffic, of earlier: InterfaceTraffic) -> Bool {
        TrafficRates(from: earlier, to: traffic, over: .seconds(1)) != nil
    }
}

extension TrafficRateMeter where Instant == ContinuousClock.Instant {
    /// `path` with rates, measured at its own time (``NetworkPath/time``).
    package mutating func measure(_ path: NetworkPath) -> NetworkPath { measure(path, at: path.time.monotonic) }
}
