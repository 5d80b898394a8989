/// What a video4linux node answers to `VIDIOC_QUERYCAP`: its driver, the card's name, and what the node does.
package struct VideoCapabilities: Sendable, Equatable {
    /// The driver's name (`uvcvideo`).
    package var driver: String
    /// The device's name as the driver gives it (`Integrated Camera: Integrated C`).
    package var card: String
    /// Where the device sits (`usb-0000:00:14.0-6`).
    package var busInfo: String
    /// The node's own capabilities (`device_caps`, or the whole device's `capabilities` from a driver too old to
    /// give them per node), `V4L2_CAP_*` bits.
    package var nodeCapabilities: UInt32

    package init(driver: String, card: String, busInfo: String, nodeCapabilities: UInt32) {
        self.driver = driver
        self.card = card
        self.busInfo = busInfo
        self.nodeCapabilities = nodeCapabilities
    }

    /// The `V4L2_CAP_*` bits of `linux/videodev2.h` that say what a node is for (stable UAPI values).
    package enum Bit {
        package static let videoCapture: UInt32 = 0x0000_0001
        package static let videoOutput: UInt32 = 0x0000_0002
        package static let videoCaptureMultiplanar: UInt32 = 0x0000_1000
        package static let videoOutputMultiplanar: UInt32 = 0x0000_2000
        package static let memoryToMemoryMultiplanar: UInt32 = 0x0000_4000
        package static let memoryToMemory: UInt32 = 0x0000_8000
        package static let metadataCapture: UInt32 = 0x0080_0000
        package static let deviceCapabilities: UInt32 = 0x8000_0000
    }

    /// What the node is for, from its capability bits: a memory-to-memory device (a codec, a scaler) captures from
    /// memory, not from a sensor, so it is told apart before capture.
    var role: VideoNode.Role {
        let bits = nodeCapabilities
        if bits & (Bit.memoryToMemory | Bit.memoryToMemoryMultiplanar) != 0 { return .memoryToMemory }
        if bits & (Bit.videoCapture | Bit.videoCaptureMultiplanar) != 0 { return .videoCapture }
        if bits & Bit.metadataCapture != 0 { return .metadataCapture }
        if bits & (Bit.videoOutput | Bit.videoOutputMultiplanar) != 0 { return .videoOutput }
        return .other
    }
}

/// A video node to ask for its capabilities: its name and the device number sysfs gives it.
package struct VideoNodeAddress: Sendable, Equatable {
    /// The node's name under `/dev` (`DEVNAME`, usually the class entry's name: `video0`).
    package var devname: String
    /// The device number from the class entry's `dev` attribute (`81:0`), to check that the node under `/dev` is this
    /// device and not another's; nil when sysfs does not give it.
    package var deviceNumber: DeviceNumber?

    package init(devname: String, deviceNumber: DeviceNumber?) {
        self.devname = devname
        self.deviceNumber = deviceNumber
    }
}

/// How the inventory learns what a video node does: the real one opens the node and asks the driver
/// (``VideoCapabilities/querying(deviceRoot:)``); tests on fake trees give the answer. It throws a ``SensorError``
/// saying why it cannot tell, which the inventory shows as the node's unknown capabilities.
package typealias VideoCapabilityQuery = @Sendable (VideoNodeAddress) throws(SensorError) -> VideoCapabilities
