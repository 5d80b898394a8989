/// One video4linux node (`<sys>/class/video4linux/videoN`): a camera's capture node, its metadata node, a codec, …
public struct VideoNode: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// What a node is for, from the driver's answer to `VIDIOC_QUERYCAP`.
    public enum Role: String, Sendable, Equatable, Encodable, CustomStringConvertible {
        /// Captures frames (`V4L2_CAP_VIDEO_CAPTURE`, or its multi-planar form): the node an application opens.
        case videoCapture
        /// Captures metadata beside the frames (`V4L2_CAP_META_CAPTURE`), such as a UVC camera's second node.
        case metadataCapture
        /// Outputs video (`V4L2_CAP_VIDEO_OUTPUT`).
        case videoOutput
        /// Processes frames from memory to memory (`V4L2_CAP_VIDEO_M2M`): a codec or scaler, not a camera.
        case memoryToMemory
        /// None of the above (radio, VBI, software-defined radio, touch).
        case other
        /// The node could not be asked; ``VideoNode/capabilitiesUnknown`` says why.
        case unknown

        /// For example `capture` or `metadata`.
        public var description: String {
            switch self {
            case .videoCapture: "capture"
            case .metadataCapture: "metadata"
            case .videoOutput: "output"
            case .memoryToMemory: "memory-to-memory"
            case .other: "other"
            case .unknown: "capabilities unknown"
            }
        }
    }

    /// The class entry's name, for example `video0`.
    public let name: String
    /// The device's name (`name`), for example `Integrated Camera: Integrated C`.
    public let label: String?
    /// The node's index within its device (`index`): 0 for the first node a driver registers.
    public let index: Int?
    /// The device node, for example `/dev/video0`.
    public let node: String
    /// What the node is for.
    public let role: Role
    /// Why the node could not be asked (no permission, no node, not this device's node), when ``role`` is
    /// ``Role/unknown``.
    public let capabilitiesUnknown: String?
    /// The driver's name from `VIDIOC_QUERYCAP` (`uvcvideo`), when the node was asked.
    public let driver: String?
    /// The hardware the node belongs to.
    public let parent: ParentDevice?

    /// Creates a node.
    public init(
        name: String, label: String? = nil, index: Int? = nil, node: String, role: Role,
        capabilitiesUnknown: String? = nil, driver: String? = nil, parent: ParentDevice? = nil
    ) {
        self.name = name
        self.label = label
        self.index = index
        self.node = node
        self.role = role
        self.capabilitiesUnknown = capabilitiesUnknown
        self.driver = driver
        self.parent = parent
    }

    /// For example `video0 capture` or `video2 capabilities unknown (/dev/video2: permission denied)`.
    public var description: String {
        var text = "\(name) \(role)"
        if let capabilitiesUnknown { text += " (\(capabilitiesUnknown))" }
        return text
    }
}

/// A camera: the video4linux nodes of one piece of hardware (a UVC webcam has a capture and a metadata node).
public struct Camera: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The camera's name: the label of its first node, or that node's name.
    public let name: String
    /// The hardware the nodes belong to; nil for nodes without a parent device, each then a camera of its own.
    public let parent: ParentDevice?
    /// The nodes, by number.
    public let nodes: [VideoNode]

    /// Creates a camera.
    public init(name: String, parent: ParentDevice?, nodes: [VideoNode]) {
        self.name = name
        self.parent = parent
        self.nodes = nodes
    }

    /// Whether the camera captures video: true when a node does, false when every node was asked and none does (a
    /// codec, a metadata-only device), nil when a node could not be asked.
    public var capturesVideo: Bool? {
        if nodes.contains(where: { $0.role == .videoCapture }) { return true }
        return nodes.contains(where: { $0.role == .unknown }) ? nil : false
    }

    /// For example `"Integrated Camera" (video0 capture, video1 metadata)`.
    public var description: String {
        "\"\(name)\" (" + nodes.map(\.description).joined(separator: ", ") + ")"
    }
}
