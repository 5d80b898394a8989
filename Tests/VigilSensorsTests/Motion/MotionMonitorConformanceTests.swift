import Testing
import VigilSensors
import VigilTestSupport

/// The compass and the attitude against the whole ``Source`` contract, fused from an accelerometer and a
/// magnetometer (the catalog's conformance suite runs them on the device channels of ``FakeMachine/fullyEquipped()``);
/// the outage takes the fake `/sys` away.
@Suite(.serialized, .timeLimit(.minutes(5))) struct MotionMonitorConformanceTests {
    static func fusedTree() -> FakeIIOTree {
        let tree = FakeIIOTree()
        tree.addMotionSensors(0, at: DevicePose(yaw: 40, pitch: 30, roll: -20), mount: MountMatrices.all[1])
        return tree
    }

    @Test func theFusedCompassConforms() async {
        let tree = Self.fusedTree()
        let root = tree.root
        let setting = ConformanceSetting(label: "a fused compass", ownedRoots: [root], outage: .renaming([root]))
        await checkSourceConformance("compass", in: setting) { loop in
            CompassMonitor(kind: try Compass(declination: 3), root: root, eventLoop: loop)
        }
        withExtendedLifetime(tree) {}
    }

    @Test func theFusedAttitudeConforms() async {
        let tree = Self.fusedTree()
        let root = tree.root
        let setting = ConformanceSetting(label: "a fused attitude", ownedRoots: [root], outage: .renaming([root]))
        await checkSourceConformance("attitude", in: setting) { loop in AttitudeMonitor(root: root, eventLoop: loop) }
        withExtendedLifetime(tree) {}
    }
}
