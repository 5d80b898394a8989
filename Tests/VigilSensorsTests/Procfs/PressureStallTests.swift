import Glibc
import Testing
import VigilSensors

@Suite(.timeLimit(.minutes(10))) struct PressureStallTests {
    @Test func averagesAndTotalsAreParsed() throws {
        let text = """
            some avg10=12.50 avg60=3.25 avg300=0.75 total=160160
            full avg10=1.00 avg60=0.50 avg300=0.00 total=113456
            """
        let pressure = try PressureStall.parse(text)
        #expect(pressure.some.avg10 == 12.5)
        #expect(pressure.some.avg60 == 3.25)
        #expect(pressure.some.avg300 == 0.75)
        #expect(pressure.some.totalMicroseconds == 160_160)
        #expect(pressure.full?.avg10 == 1.0)
        #expect(pressure.full?.totalMicroseconds == 113_456)
        #expect(pressure.level == .warning)
        #expect(pressure.mode == .snapshot)
        #expect(pressure.description == "pressure warning: some 12.50 %, full 1.00 % (avg10; snapshot)")
    }

    @Test(arguments: [
        (0.0, 0.0, PressureStall.Level.normal), (9.99, 0.0, .normal), (10.0, 0.0, .warning), (39.0, 9.9, .warning),
        (40.0, 0.0, .critical), (5.0, 10.0, .critical),
    ])
    func levelFollowsThresholds(some: Double, full: Double, level: PressureStall.Level) throws {
        let text =
            "some avg10=\(some) avg60=0.00 avg300=0.00 total=1\nfull avg10=\(full) avg60=0.00 avg300=0.00 total=1"
        #expect(try PressureStall.parse(text).level == level)
    }

    @Test func cpuPressureWithoutFullLineParses() throws {
        let pressure = try PressureStall.parse(
            "some avg10=0.00 avg60=0.00 avg300=0.00 total=5", path: "/proc/pressure/cpu")
        #expect(pressure.full == nil)
        #expect(pressure.level == .normal)
    }

    @Test(arguments: [
        "", "full avg10=0.00 avg60=0.00 avg300=0.00 total=0", "some avg10=abc avg60=0.00 avg300=0.00 total=0",
        "some avg10=0.00 avg60=0.00 total=0", "some avg10=101.00 avg60=0.00 avg300=0.00 total=0",
        "some avg10=0.00 avg60=0.00 avg300=0.00 total=-1", "some avg10 avg60=0 avg300=0 total=0",
        "some avg10=nan avg60=0.00 avg300=0.00 total=0",
    ])
    func malformedPressureIsAnError(text: String) {
        #expect(throws: SensorError.self) { try PressureStall.parse(text) }
    }

    @Test func realMemoryPressureParses() throws {
        let fd = open("/proc/pressure/memory", O_RDONLY)
        try #require(fd >= 0, "this kernel has no PSI (/proc/pressure/memory)")
        close(fd)
        let pressure = try PressureStall.parse(try readProcFile("/proc/pressure/memory"))
        #expect(pressure.full != nil)
        #expect((0...100).contains(pressure.some.avg300))
    }
}
