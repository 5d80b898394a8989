import Testing
import VigilSensors
import VigilTestSupport

/// The NMEA decoder on real receivers' logs (`Tests/Fixtures/nmea`, whose README gives the expected first fix),
/// replayed in arbitrary chunks, and on hostile streams.
@Suite(.timeLimit(.minutes(5))) struct NMEADecoderTests {
    struct Expected: Sendable, CustomStringConvertible {
        let log: String
        let time: String
        let latitude: Double
        let longitude: Double
        let altitude: Double
        let satellites: Int
        let hdop: Double
        let quality: FixQuality

        var description: String { log }
    }

    /// The README's first fixes.
    static let firstFixes = [
        Expected(
            log: "sirf4-bu353s4.log", time: "2014-12-31T03:07:19.000Z", latitude: -37.784788, longitude: 175.314897,
            altitude: 59.9, satellites: 8, hdop: 1.1, quality: .gps),
        Expected(
            log: "ublox-lea-4h-nofix-then-fix.log", time: "2006-08-10T03:08:58.000Z", latitude: 49.130889,
            longitude: -122.719957, altitude: 516.7, satellites: 3, hdop: 9.97, quality: .gps),
        Expected(
            log: "sirf-trig-beidou-bd.log", time: "2015-02-25T07:41:55.799Z", latitude: 31.247950,
            longitude: 121.587438, altitude: 156.9, satellites: 5, hdop: 1.3, quality: .gps),
        Expected(
            log: "sirf-trig-beidou-gb.log", time: "2015-03-02T05:32:32.438Z", latitude: 31.247982,
            longitude: 121.587403, altitude: 153.8, satellites: 6, hdop: 1.2, quality: .gps),
        Expected(
            log: "ublox-neo-m9n-multignss-first287.log", time: "2020-07-11T22:37:45.000Z", latitude: 38.110494,
            longitude: -122.626897, altitude: 83.1, satellites: 12, hdop: 0.54, quality: .dgps),
        Expected(
            log: "ublox8-nmea-with-ubx-binary.log", time: "2024-03-24T20:42:21.000Z", latitude: 46.404600,
            longitude: -117.020753, altitude: 286.2, satellites: 6, hdop: 1.36, quality: .gps),
    ]

    /// Every fix of `bytes`, fed in chunks of 1 to 300 bytes chosen by `seed`.
    static func decode(_ bytes: [UInt8], seed: UInt64) -> [LocationFix] {
        var random = SeededRandom(seed: seed)
        var decoder = NMEADecoder(receiver: "/dev/gnss0")
        var fixes: [LocationFix] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + Int.random(in: 1...300, using: &random))
            fixes += decoder.consume(bytes[offset..<end])
            offset = end
        }
        return fixes
    }

    @Test(arguments: firstFixes) func firstFixIsTheReadmes(expected: Expected) throws {
        let bytes = try #require(Fixtures.bytes("nmea/" + expected.log))
        for seed in [1, 2, 3] as [UInt64] {
            let fixes = Self.decode(bytes, seed: seed)
            let fix = try #require(fixes.first { $0.mode.hasFix }, "\(expected.log)")
            #expect(fix.time?.description == expected.time)
            #expect(abs(try #require(fix.latitude) - expected.latitude) < 1e-6)
            #expect(abs(try #require(fix.longitude) - expected.longitude) < 1e-6)
            #expect(fix.altitude == expected.altitude)
            #expect(fix.satellitesUsed == expected.satellites)
            #expect(fix.hdop == expected.hdop)
            #expect(fix.quality == expected.quality)
            #expect(fixes.allSatisfy { $0.receiver == "/dev/gnss0" })
        }
    }

    @Test func noFixIsAReadingWithTheSatellitesInView() throws {
        let bytes = try #require(Fixtures.bytes("nmea/ublox-lea-4h-nofix-then-fix.log"))
        let fixes = Self.decode(bytes, seed: 7)
        let first = try #require(fixes.first)
        #expect(first.mode == .none && first.latitude == nil && first.satellitesInView == 3)
        #expect(first.time?.description == "2006-08-10T03:08:51.000Z")
        #expect(first.description == "no fix, 3 satellites in view")
        // Epochs 03:08:51, 52, 53 and 57 have no fix; 03:08:58 is the first fix, 2D by its GSA.
        #expect(fixes.prefix(4).allSatisfy { !$0.mode.hasFix })
        #expect(fixes[4].mode == .twoD)
    }

    @Test func multiConstellationFixHasEverythingTheReceiverSaid() throws {
        let bytes = try #require(Fixtures.bytes("nmea/ublox-neo-m9n-multignss-first287.log"))
        let fixes = Self.decode(bytes, seed: 11)
        let fix = try #require(fixes.first)
        #expect(fix.mode == .threeD)
        #expect(fix.geoidSeparation == -29.5)
        #expect(fix.satellitesInView == 16 + 10 + 10 + 7)
        #expect(fix.pdop == 0.99 && fix.vdop == 0.83)
        #expect(fix.speed.map { abs($0 - 0.040 * 1852 / 3600) < 1e-9 } == true)
        #expect(fix.latitudeError != nil && fix.longitudeError != nil && fix.altitudeError != nil)
        // Twelve epochs; the last stays open until the next begins.
        #expect(fixes.count == 11)
    }

    @Test func binaryFramesAreSkippedWithoutLosingSentences() throws {
        let bytes = try #require(Fixtures.bytes("nmea/ublox8-nmea-with-ubx-binary.log"))
        var decoder = NMEADecoder(receiver: "r")
        let fixes = decoder.consume(bytes)
        #expect(fixes.contains { $0.mode.hasFix })
        #expect(decoder.pendingByteCount <= NMEAStream.maximumLength)
    }

    @Test func wrongChecksumsAreRefused() {
        var decoder = NMEADecoder(receiver: "r")
        let body = "$GPGGA,030858.00,4907.85331,N,12243.19743,W,1,03,9.97,516.7,M,-16.7,M,,"
        let good = body + "*6C\r\n"
        let bad = body + "*6D\r\n"
        let missing = body + "\r\n"
        let next = "$GPGGA,030859.00,,,,,0,00,,,M,,M,,*4F\r\n"
        #expect(decoder.consume(Array((bad + missing + next).utf8)).isEmpty)
        #expect(decoder.rejectedSentences == 2)
        let fixes = decoder.consume(Array((good + next).utf8))
        #expect(fixes.count == 2 && fixes[1].mode.hasFix)
    }

    @Test func megabytesWithoutANewlineKeepMemoryBounded() {
        var decoder = NMEADecoder(receiver: "r")
        let junk = [UInt8](repeating: UInt8(ascii: "A"), count: 1 << 16)
        #expect(decoder.consume([UInt8(ascii: "$")]).isEmpty)
        for _ in 0..<64 {
            #expect(decoder.consume(junk).isEmpty)
            #expect(decoder.pendingByteCount <= NMEAStream.maximumLength)
        }
        let line = "$GPGGA,030858.00,4907.85331,N,12243.19743,W,1,03,9.97,516.7,M,-16.7,M,,*6C\r\n"
        _ = decoder.consume(Array(line.utf8))
        #expect(decoder.consume(Array("$GPGGA,030859.00,,,,,0,00,,,M,,M,,*4F\r\n".utf8)).first?.mode == .fix)
    }

    @Test(arguments: [
        "$GPGGA,999999.00,4907.85331,N,12243.19743,W,1,03,9.97,516.7,M,-16.7,M,,",
        "$GPGGA,030858.00,9999.99999,N,12243.19743,W,1,03,9.97,516.7,M,-16.7,M,,",
        "$GPGGA,030858.00,4907.85331,N,12243.19743,W,1,03,9.97,nan,M,inf,M,,",
        "$GPGGA,030858.00,4907.85331,X,12243.19743,W,1,99999999999,1e999,516.7,M,-16.7,M,,",
        "$GPRMC,030858.00,A,4907.85331,N,12243.19743,W,-1,999,310299,,,A",
        "$GPGSV,1,1,99999,28,28,095,33",
        "$GPZDA,030858.00,31,02,2006,00,00",
        "$GPGSA,A,9",
        "$GPGGA",
        "$GPVTG,054.7,T,034.4,M,005.5,N,-10.2,K",
        "$GPGST,030858.00,1.0,0.5,0.3,45,-2.0,-1.0,-3.0",
    ]) func hostileFieldsNeverBecomeValues(body: String) {
        var decoder = NMEADecoder(receiver: "r")
        let checksum = body.utf8.dropFirst().reduce(0, ^)
        let hex = String(checksum, radix: 16, uppercase: true)
        let line = body + "*" + (hex.count == 1 ? "0" + hex : hex) + "\r\n"
        let next = "$GPGGA,030859.00,,,,,0,00,,,M,,M,,*4F\r\n"
        let fixes = decoder.consume(Array((line + next).utf8))
        for fix in fixes {
            #expect(fix.altitude.map { $0.isFinite } ?? true)
            #expect(fix.latitude.map { abs($0) <= 90 } ?? true)
            #expect(fix.speed.map { $0 >= 0 } ?? true)
            for error in [fix.latitudeError, fix.longitudeError, fix.altitudeError] {
                #expect(error.map { $0 >= 0 && $0.isFinite } ?? true)
            }
            #expect(fix.satellitesInView.map { $0 <= 255 } ?? true)
            #expect(fix.time == nil)
        }
    }

    /// A negative speed or error estimate is no reading of the world: left out, in an epoch that has a time.
    @Test func negativeSpeedsAndErrorsAreLeftOut() {
        var decoder = NMEADecoder(receiver: "r")
        let bodies = [
            "$GPGGA,030858.00,4907.85331,N,12243.19743,W,1,03,9.97,516.7,M,-16.7,M,,",
            "$GPVTG,054.7,T,034.4,M,005.5,N,-10.2,K", "$GPGST,030858.00,1.0,0.5,0.3,45,-2.0,-1.0,-3.0",
            "$GPGGA,030859.00,,,,,0,00,,,M,,M,,",
        ]
        let lines = bodies.map { body -> String in
            let hex = String(body.utf8.dropFirst().reduce(0, ^), radix: 16, uppercase: true)
            return body + "*" + (hex.count == 1 ? "0" + hex : hex) + "\r\n"
        }
        let fix = decoder.consume(Array(lines.joined().utf8)).first
        #expect(fix?.latitude != nil, "the epoch is a fix")
        #expect(fix?.speed.map { $0 >= 0 } ?? true, "\(String(describing: fix?.speed))")
        for error in [fix?.latitudeError, fix?.longitudeError, fix?.altitudeError] {
            #expect(error.map { $0 >= 0 } ?? true, "\(String(describing: error))")
        }
    }
}
