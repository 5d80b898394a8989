import Vigil
import VigilSensors
import VigilTestSupport
import VigilTesting

/// A compass and an attitude monitor polling a fake IIO tree at 200 Hz on an event loop whose time only the test
/// moves: each ``advance()`` is one poll of every device, after which the latest readings are the poll's.
final class MotionTestRig {
    let tree: FakeIIOTree
    let clock = ManualClock()
    let loop: EventLoop
    let compass: CompassMonitor
    let attitude: AttitudeMonitor
    let compassReadings: IIOReadingRecorder<SensorReading<CompassHeading>>
    let attitudeReadings: IIOReadingRecorder<SensorReading<Attitude>>

    static let interval = Duration.milliseconds(5)

    init(_ tree: FakeIIOTree, compass kind: Compass = Compass(), mode: IIOMode = .polled) {
        self.tree = tree
        loop = EventLoop(clock: clock)
        compass = CompassMonitor(
            kind: kind, root: tree.root, mode: mode, updateInterval: Self.interval, eventLoop: loop)
        attitude = AttitudeMonitor(root: tree.root, mode: mode, updateInterval: Self.interval, eventLoop: loop)
        compassReadings = IIOReadingRecorder(compass.readings)
        attitudeReadings = IIOReadingRecorder(attitude.readings)
    }

    deinit {
        compass.stopMonitoring()
        attitude.stopMonitoring()
        loop.shutdown()
    }

    /// Starts the compass and the attitude, each where the tree has what it needs.
    func start() throws {
        if compass.availability.isAvailable { try compass.startMonitoring() }
        if attitude.availability.isAvailable { try attitude.startMonitoring() }
    }

    /// A rig on `tree`, started, after its first poll.
    static func started(_ tree: FakeIIOTree, compass kind: Compass = Compass()) async throws -> MotionTestRig {
        let rig = MotionTestRig(tree, compass: kind)
        try rig.start()
        await rig.advance()
        return rig
    }

    /// One poll of every device.
    func advance() async {
        await clock.advance(by: Self.interval)
    }

    var heading: CompassHeading? { compass.readings.value.value }
    var currentAttitude: Attitude? { attitude.readings.value.value }

    /// The reason of the compass's latest reading when it is unavailable.
    var compassProblem: String? {
        if case .unavailable(let reason) = compass.readings.value.status { return reason }
        return nil
    }

    /// The reason of the attitude's latest reading when it is unavailable.
    var attitudeProblem: String? {
        if case .unavailable(let reason) = attitude.readings.value.status { return reason }
        return nil
    }
}
