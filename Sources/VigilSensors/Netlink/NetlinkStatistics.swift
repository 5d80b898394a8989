import Synchronization

/// Counters a netlink source keeps about what it received and skipped.
public struct NetlinkStatistics: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// Datagrams received.
    public var datagrams = 0
    /// Messages skipped because they were truncated or malformed (including datagrams cut by the buffer).
    public var malformed = 0
    /// Well-formed messages the source does not use.
    public var ignored = 0
    /// Datagrams dropped because the kernel did not send them.
    public var rejected = 0
    /// Times the kernel reported dropped messages (`ENOBUFS`).
    public var overflows = 0
    /// Full dumps run to build or rebuild the mirror (network monitor only).
    public var dumps = 0

    /// Creates zeroed counters.
    package init() {}

    public var description: String {
        "datagrams \(datagrams), malformed \(malformed), ignored \(ignored), rejected \(rejected), "
            + "overflows \(overflows), dumps \(dumps)"
    }
}

/// The live counters behind ``NetlinkStatistics``, updated from the event-loop thread and read from any thread.
final class NetlinkCounters: Sendable {
    let datagrams = Atomic<Int>(0)
    let malformed = Atomic<Int>(0)
    let ignored = Atomic<Int>(0)
    let rejected = Atomic<Int>(0)
    let overflows = Atomic<Int>(0)
    let dumps = Atomic<Int>(0)

    enum Counter { case datagrams, malformed, ignored, rejected, overflows, dumps }

    func add(_ counter: Counter, _ amount: Int = 1) {
        guard amount != 0 else { return }
        switch counter {
        case .datagrams: datagrams.add(amount, ordering: .relaxed)
        case .malformed: malformed.add(amount, ordering: .relaxed)
        case .ignored: ignored.add(amount, ordering: .relaxed)
        case .rejected: rejected.add(amount, ordering: .relaxed)
        case .overflows: overflows.add(amount, ordering: .relaxed)
        case .dumps: dumps.add(amount, ordering: .relaxed)
        }
    }

    /// Adds what a parse of one datagram skipped.
    func add(_ result: RouteMessageParser.Result) {
        add(.malformed, result.malformed)
        add(.ignored, result.ignored)
        add(.rejected, result.rejected)
    }

    var snapshot: NetlinkStatistics {
        var statistics = NetlinkStatistics()
        statistics.datagrams = datagrams.load(ordering: .relaxed)
        statistics.malformed = malformed.load(ordering: .relaxed)
        statistics.ignored = ignored.load(ordering: .relaxed)
        statistics.rejected = rejected.load(ordering: .relaxed)
        statistics.overflows = overflows.load(ordering: .relaxed)
        statistics.dumps = dumps.load(ordering: .relaxed)
        return statistics
    }
}
