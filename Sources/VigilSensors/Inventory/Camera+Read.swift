extension Camera {
    /// The attributes read of a video4linux entry.
    static let attributeNames = ["name", "index", "dev", "uevent"]

    /// Reads every node under `<root>/class/video4linux`, asks each what it is with `query`, and groups the nodes by
    /// the hardware they belong to.
    ///
    /// One bad entry hides only itself (it is a problem line); a node that cannot be asked is listed with its role
    /// unknown and the reason, never a problem.
    ///
    /// - Throws: A ``SensorError`` when the class directory exists but cannot be listed, or `root` is gone.
    static func read(root: String, query: VideoCapabilityQuery) throws(SensorError) -> SysfsClass.Devices<Camera> {
        let nodes = try SysfsClass.read(
            root: root, className: "video4linux", include: { isNodeName($0, prefix: "video") },
            attributes: { _ in attributeNames },
            parseAt: { (name, read, directory) throws(SensorError) in
                parseNode(name: name, read: read, parent: ParentDevice.read(directory, root: root), query: query)
            })
        return SysfsClass.Devices(devices: group(nodes.devices), problems: nodes.problems)
    }

    /// One node from its attributes and the answer of `query`.
    static func parseNode(
        name: String, read: AttributeTexts, parent: ParentDevice?, query: VideoCapabilityQuery
    ) -> VideoNode {
        let properties = UeventFile.properties(read.texts["uevent"] ?? "")
        let devname = properties["DEVNAME"].flatMap { $0.isEmpty ? nil : $0 } ?? name
        let address = VideoNodeAddress(
            devname: devname, deviceNumber: read.texts["dev"].flatMap { DeviceNumber(attribute: $0) })
        let label = read.texts["name"].map { $0.trimmingWhitespace() }
        let index = read.texts["index"].flatMap { Int($0.trimmingWhitespace()) }
        do {
            let capabilities = try query(address)
            return VideoNode(
                name: name, label: label, index: index, node: "/dev/" + devname, role: capabilities.role,
                driver: capabilities.driver.isEmpty ? nil : capabilities.driver, parent: parent)
        } catch {
            return VideoNode(
                name: name, label: label, index: index, node: "/dev/" + devname, role: .unknown,
                capabilitiesUnknown: error.description, parent: parent)
        }
    }

    /// The nodes grouped by parent device, in the order of each group's first node (nodes without a parent alone).
    static func group(_ nodes: [VideoNode]) -> [Camera] {
        let sorted = nodes.sorted { nodeNumber($0.name) < nodeNumber($1.name) }
        var cameras: [Camera] = []
        var indexByParent: [String: Int] = [:]
        for node in sorted {
            if let path = node.parent?.path, let index = indexByParent[path] {
                let camera = cameras[index]
                cameras[index] = Camera(name: camera.name, parent: camera.parent, nodes: camera.nodes + [node])
                continue
            }
            if let path = node.parent?.path { indexByParent[path] = cameras.count }
            let name = node.label.flatMap { $0.isEmpty ? nil : $0 } ?? node.name
            cameras.append(Camera(name: name, parent: node.parent, nodes: [node]))
        }
        return cameras
    }

    /// The number after the prefix of a node name (`video12` → 12), for ordering; names without one sort last.
    static func nodeNumber(_ name: String) -> Int {
        Int(name.drop { !$0.isNumber }) ?? Int.max
    }
}

/// Whether `name` is `prefix` followed by a decimal number, as the kernel names class devices (`video0`, `card1`,
/// `hci0`, `input12`).
func isNodeName(_ name: String, prefix: String) -> Bool {
    guard name.hasPrefix(prefix) else { return false }
    let digits = name.dropFirst(prefix.count)
    return !digits.isEmpty && digits.count <= 10 && digits.allSatisfy { $0.isASCII && $0.isNumber }
}
