import Glibc
import Testing
import Vigil
import VigilTestSupport

@testable import VigilSensors

/// Cameras from `class/video4linux`: nodes grouped by hardware, capture told apart from metadata through the
/// capability seam, and the real `VIDIOC_QUERYCAP` path refusing what is not the node.
@Suite(.timeLimit(.minutes(10))) struct CameraTests {
    /// A UVC camera's answers: `video0` captures (with `V4L2_CAP_DEVICE_CAPS` beside it), `video1` carries metadata.
    static let uvc: VideoCapabilityQuery = { (address) throws(SensorError) in
        let bits =
            address.devname == "video0"
            ? VideoCapabilities.Bit.videoCapture : VideoCapabilities.Bit.metadataCapture
        return VideoCapabilities(
            driver: "uvcvideo", card: "Integrated Camera: Integrated C", busInfo: "usb-0000:00:14.0-6",
            nodeCapabilities: bits)
    }

    @Test func groupsACamerasCaptureAndMetadataNodes() throws {
        let machine = FakeMachine.empty()
        machine.addInventory()
        let read = try Camera.read(root: machine.sys.root, query: Self.uvc)
        #expect(read.problems.isEmpty, "\(read.problems)")
        let camera = try #require(read.devices.first)
        #expect(read.devices.count == 1)
        #expect(camera.name == "Integrated Camera: Integrated C")
        #expect(camera.parent?.path == "/devices/" + FakeMachine.cameraInterface)
        #expect(camera.parent?.driver == "uvcvideo" && camera.parent?.bus == "usb")
        #expect(camera.nodes.map(\.role) == [.videoCapture, .metadataCapture])
        #expect(camera.nodes.map(\.index) == [0, 1])
        #expect(camera.nodes.map(\.node) == ["/dev/video0", "/dev/video1"])
        #expect(camera.capturesVideo == true)
        #expect(camera.description == "\"Integrated Camera: Integrated C\" (video0 capture, video1 metadata)")
    }

    @Test func theQueryIsGivenTheNodeNameAndDeviceNumber() throws {
        let machine = FakeMachine.empty()
        machine.addInventory()
        let asked = FutexMutex<[VideoNodeAddress]>([])
        _ = try Camera.read(root: machine.sys.root) { (address) throws(SensorError) in
            asked.withLock { $0.append(address) }
            return try Self.uvc(address)
        }
        #expect(
            asked.withLock { $0 } == [
                VideoNodeAddress(devname: "video0", deviceNumber: DeviceNumber(major: 81, minor: 0)),
                VideoNodeAddress(devname: "video1", deviceNumber: DeviceNumber(major: 81, minor: 1)),
            ])
    }

    @Test func anUnaskableNodeIsUnknownWithItsReasonNotAProblem() throws {
        let machine = FakeMachine.empty()
        machine.addInventory()
        let read = try Camera.read(root: machine.sys.root) { (address) throws(SensorError) in
            throw SensorError.permissionDenied(path: "/dev/" + address.devname)
        }
        #expect(read.problems.isEmpty)
        let nodes = try #require(read.devices.first?.nodes)
        #expect(nodes.map(\.role) == [.unknown, .unknown])
        #expect(nodes.first?.capabilitiesUnknown == "/dev/video0: permission denied")
        #expect(read.devices.first?.capturesVideo == nil)
    }

    /// Capability bits and the role they make: a codec captures from memory, so it is told apart before capture.
    static let roles: [(UInt32, VideoNode.Role)] = [
        (VideoCapabilities.Bit.videoCaptureMultiplanar, .videoCapture),
        (VideoCapabilities.Bit.memoryToMemory | VideoCapabilities.Bit.videoCapture, .memoryToMemory),
        (VideoCapabilities.Bit.memoryToMemoryMultiplanar, .memoryToMemory),
        (VideoCapabilities.Bit.videoOutput, .videoOutput), (0x0001_0000, .other),
    ]

    @Test(arguments: roles)
    func rolesFromCapabilityBits(_ bits: UInt32, _ role: VideoNode.Role) {
        #expect(VideoCapabilities(driver: "", card: "", busInfo: "", nodeCapabilities: bits).role == role)
    }

    @Test func nodesWithoutParentsAreCamerasOfTheirOwnAndACodecCapturesNothing() throws {
        let machine = FakeMachine.empty()
        machine.sys.classDevice("video4linux", "video10", parent: nil, ["name": "bcm2835-codec-decode"])
        machine.sys.classDevice("video4linux", "video11", parent: nil, ["name": "bcm2835-codec-encode"])
        let read = try Camera.read(root: machine.sys.root) { (_) throws(SensorError) in
            VideoCapabilities(
                driver: "bcm2835-codec", card: "", busInfo: "", nodeCapabilities: VideoCapabilities.Bit.memoryToMemory)
        }
        #expect(read.devices.map(\.name) == ["bcm2835-codec-decode", "bcm2835-codec-encode"])
        #expect(read.devices.allSatisfy { $0.capturesVideo == false })
        #expect(DeviceInventory(cameras: read.devices).count(.camera) == 0)
    }

    /// The real query against what stands at `/dev/<name>` in a scratch directory: never a node of another device,
    /// never a FIFO opened, and a character device that is no video node answers `ENOTTY`.
    @Test func theRealQueryAsksOnlyTheNodeSysfsNames() throws {
        let scratch = TemporaryDirectory("vigil-dev")
        defer { scratch.remove() }
        let query = VideoCapabilities.querying(deviceRoot: scratch.path)
        #expect(mkfifo(scratch.path + "/video0", 0o644) == 0)
        symlink("/dev/null", scratch.path + "/video1")
        symlink("/dev/null", scratch.path + "/video2")
        func failure(_ address: VideoNodeAddress) -> String {
            do {
                _ = try query(address)
                return "answered"
            } catch {
                return error.description
            }
        }
        #expect(failure(VideoNodeAddress(devname: "video0", deviceNumber: nil)).contains("is a FIFO"))
        // /dev/null is 1:3, not the 81:1 sysfs gives video1: not asked.
        let other = failure(VideoNodeAddress(devname: "video1", deviceNumber: DeviceNumber(major: 81, minor: 1)))
        #expect(other.contains("it is device 1:3, not 81:1"), "\(other)")
        // The device sysfs names, but no video4linux driver behind it.
        let null = failure(VideoNodeAddress(devname: "video2", deviceNumber: DeviceNumber(major: 1, minor: 3)))
        #expect(null.contains("VIDIOC_QUERYCAP") && null.contains("ENOTTY"), "\(null)")
        #expect(failure(VideoNodeAddress(devname: "video3", deviceNumber: nil)).contains("no such file"))
        let none = VideoCapabilities.querying(deviceRoot: nil)
        #expect(throws: SensorError.self) { try none(VideoNodeAddress(devname: "video0", deviceNumber: nil)) }
    }

    @Test(arguments: ["81:0", " 81:0\n"]) func deviceNumbersParse(_ text: String) {
        #expect(DeviceNumber(attribute: text) == DeviceNumber(major: 81, minor: 0))
    }

    @Test(arguments: ["81", "81:", ":0", "a:b", "81:0:1", "-1:0", ""]) func badDeviceNumbersDoNot(_ text: String) {
        #expect(DeviceNumber(attribute: text) == nil)
    }

    /// `dev_t` values laid out as glibc's `makedev(3)` lays them out: minor bits 0–7 and 20–43, major bits 8–19
    /// and 44–63.
    @Test func aDeviceNumberSplitsLikeGlibc() {
        #expect(DeviceNumber(dev_t(0x5100)) == DeviceNumber(major: 81, minor: 0))
        #expect(DeviceNumber(dev_t(0xFFF1_03FF)) == DeviceNumber(major: 259, minor: 1_048_575))
        #expect(DeviceNumber(dev_t(0x1000_0002_3400)) == DeviceNumber(major: 0x1234, minor: 0))
    }
}
