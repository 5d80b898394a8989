import Testing
import VigilSensors
import VigilTestSupport

/// ``LocationMonitor`` with an open receiver (a pseudo-terminal behind a fake `class/gnss`) against the whole
/// ``Source`` contract; the outage takes the fake `/sys` away.
@Suite(.timeLimit(.minutes(5))) struct LocationMonitorConformanceTests {
    @Test func conformsWithAnOpenReceiver() async throws {
        let fixture = try #require(LocationMonitorTests.Fixture())
        let (sys, dev) = (fixture.sys.root, fixture.dev.root)
        let setting = ConformanceSetting(
            label: "a fake machine with a GNSS receiver on a terminal", ownedRoots: [sys, dev],
            outage: .renaming([sys]))
        await checkSourceConformance("location", in: setting) { loop in
            LocationMonitor(root: sys, devRoot: dev, eventLoop: loop)
        }
        withExtendedLifetime(fixture) {}
    }
}
