import Testing
import VigilSensors
import VigilTesting

/// Rates from two readings of an interface's counters, timed by a manual clock: exact values, and a counter that
/// goes backwards (the interface re-created, a 32-bit counter wrapped) restarting the rate instead of giving a
/// negative or huge one.
@Suite(.timeLimit(.minutes(5))) struct TrafficRatesTests {
    private static func traffic(_ receivedBytes: UInt64, _ receivedPackets: UInt64, _ sentBytes: UInt64, _ sent: UInt64)
        -> InterfaceTraffic
    {
        InterfaceTraffic(
            receive: .init(bytes: receivedBytes, packets: receivedPackets),
            transmit: .init(bytes: sentBytes, packets: sent))
    }

    private static func path(_ interfaces: [(Int, String, InterfaceTraffic?)]) -> NetworkPath {
        NetworkPath(
            interfaces: interfaces.map { index, name, traffic in
                NetworkInterface(
                    index: index, name: name, kind: .ethernet, flags: [.up], operationalStatus: .up, traffic: traffic)
            })
    }

    @Test func ratesAreTheCountersChangeOverTheTimeBetween() throws {
        let rates = try #require(
            TrafficRates(
                from: Self.traffic(1000, 10, 500, 5), to: Self.traffic(5000, 50, 2500, 25), over: .milliseconds(2000)))
        #expect(rates.receiveBytesPerSecond == 2000 && rates.receivePacketsPerSecond == 20)
        #expect(rates.transmitBytesPerSecond == 1000 && rates.transmitPacketsPerSecond == 10)
        #expect(rates.bytesPerSecond == 3000)
        #expect(rates.description == "rx 2.0 kB/s 20 pkt/s, tx 1.0 kB/s 10 pkt/s")
    }

    @Test func aCounterGoingBackwardsOrNoTimePassingGivesNoRate() {
        let earlier = Self.traffic(1000, 10, 500, 5)
        #expect(TrafficRates(from: earlier, to: Self.traffic(999, 11, 600, 6), over: .seconds(1)) == nil)
        #expect(TrafficRates(from: earlier, to: Self.traffic(1000, 10, 500, 4), over: .seconds(1)) == nil)
        #expect(TrafficRates(from: earlier, to: Self.traffic(2000, 20, 600, 6), over: .zero) == nil)
        #expect(TrafficRates(from: earlier, to: Self.traffic(2000, 20, 600, 6), over: .seconds(-1)) == nil)
        let full = Self.traffic(.max, .max, .max, .max)
        let rates = TrafficRates(from: Self.traffic(0, 0, 0, 0), to: full, over: .nanoseconds(1))
        #expect(rates.map { $0.receiveBytesPerSecond.isFinite && $0.receiveBytesPerSecond > 0 } == true)
    }

    @Test func theMeterGivesRatesFromTheSecondReadingAndRestartsThemAfterAReset() async throws {
        let clock = ManualClock()
        var meter = TrafficRateMeter<ManualClock.Instant>()
        let first = meter.measure(Self.path([(2, "eth0", Self.traffic(1000, 10, 0, 0))]), at: clock.now)
        #expect(first.interfaces[0].rates == nil, "one reading has no rate")

        _ = await clock.advance(by: .seconds(2))
        let second = meter.measure(Self.path([(2, "eth0", Self.traffic(3000, 30, 400, 4))]), at: clock.now)
        #expect(second.interfaces[0].rates?.receiveBytesPerSecond == 1000)
        #expect(second.interfaces[0].rates?.transmitPacketsPerSecond == 2)

        // A reading a moment later (a link message just after a poll) keeps the rate and the reading it came from.
        _ = await clock.advance(by: .milliseconds(10))
        let soon = meter.measure(Self.path([(2, "eth0", Self.traffic(3100, 31, 400, 4))]), at: clock.now)
        #expect(soon.interfaces[0].rates == second.interfaces[0].rates)
        _ = await clock.advance(by: .milliseconds(10))
        let still = meter.measure(Self.path([(2, "eth0", Self.traffic(3100, 31, 400, 4))]), at: clock.now)
        #expect(still.interfaces[0].rates?.bytesPerSecond == 0, "still since the last reading, however soon")
        _ = await clock.advance(by: .seconds(1))
        let later = meter.measure(Self.path([(2, "eth0", Self.traffic(4000, 40, 400, 4))]), at: clock.now)
        #expect(later.interfaces[0].rates?.receiveBytesPerSecond == 900, "900 B over the second after the still one")

        _ = await clock.advance(by: .seconds(1))
        let reset = meter.measure(Self.path([(2, "eth0", Self.traffic(100, 1, 50, 1))]), at: clock.now)
        #expect(reset.interfaces[0].rates == nil, "counters that went back restart the rate")
        _ = await clock.advance(by: .seconds(1))
        let resumed = meter.measure(Self.path([(2, "eth0", Self.traffic(300, 3, 50, 1))]), at: clock.now)
        #expect(resumed.interfaces[0].rates?.receiveBytesPerSecond == 200)
        #expect(resumed.interfaces[0].rates?.transmitBytesPerSecond == 0, "still counters: a rate of zero")
    }

    @Test func anInterfaceRenamedGoneOrWithoutCountersStartsOver() async throws {
        let clock = ManualClock()
        var meter = TrafficRateMeter<ManualClock.Instant>()
        _ = meter.measure(
            Self.path([(2, "eth0", Self.traffic(0, 0, 0, 0)), (3, "eth1", Self.traffic(0, 0, 0, 0))]), at: clock.now)
        _ = await clock.advance(by: .seconds(1))
        let next = meter.measure(
            Self.path([(2, "wan0", Self.traffic(10, 1, 0, 0)), (4, "eth2", Self.traffic(10, 1, 0, 0))]), at: clock.now)
        #expect(next.interfaces.map(\.rates) == [nil, nil])
        _ = await clock.advance(by: .seconds(1))
        let counterless = meter.measure(
            Self.path([(2, "wan0", nil), (3, "eth1", Self.traffic(10, 1, 0, 0))]), at: clock.now)
        #expect(counterless.interfaces.map(\.rates) == [nil, nil], "eth1 went away in between")
        _ = await clock.advance(by: .seconds(1))
        let back = meter.measure(Self.path([(2, "wan0", Self.traffic(20, 2, 0, 0))]), at: clock.now)
        #expect(back.interfaces[0].rates == nil)
    }

    @Test(arguments: [
        (0.0, "0 B"), (999.0, "999 B"), (999.96, "1.0 kB"), (1234.0, "1.2 kB"), (12_345_678.0, "12.3 MB"),
        (-5.0, "0 B"), (Double.infinity, "0 B"), (Double.nan, "0 B"),
    ])
    func bytesAreWrittenInDecimalUnits(value: Double, text: String) {
        #expect(TrafficRates.bytes(value) == text)
    }
}
