import Testing
import VigilSensors
import VigilTestSupport

/// ``SwitchMonitor`` with open nodes against the whole ``Source`` contract: the catalog's run on a fake machine has no
/// node to open, so here the stand-in serves both devices' nodes, and the checker also sees their registrations on the
/// loop closed by a stop and by a release.
@Suite(.timeLimit(.minutes(5))) struct SwitchMonitorConformanceTests {
    @Test func conformsWithOpenNodes() async {
        let fixture = SwitchMonitorTests.Fixture()
        let (sys, dev, evdev) = (fixture.sys.root, fixture.dev.root, fixture.evdev)
        let setting = ConformanceSetting(
            label: "a fake machine with open switch nodes", ownedRoots: [sys, dev], outage: .renaming([sys]))
        await checkSourceConformance("switches", in: setting) { loop in
            SwitchMonitor(root: sys, devRoot: dev, changes: nil, eventLoop: loop, access: evdev.access)
        }
        withExtendedLifetime(fixture) {}
    }
}
