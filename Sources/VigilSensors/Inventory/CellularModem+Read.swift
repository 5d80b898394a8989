extension CellularModem {
    /// One piece of a modem before grouping: what it is and which hardware it belongs to.
    struct Piece {
        enum Kind {
            case wwanDevice(String)
            case port(Port)
            case networkInterface(String)
            case controlNode(String)
        }

        var kind: Kind
        /// The class entry's `device` link, as read.
        var parent: ParentDevice?
    }

    /// Reads the WWAN devices and ports of `<root>/class/wwan`, the network interfaces of `<root>/class/net` whose
    /// `uevent` says `DEVTYPE=wwan`, and the `cdc-wdm` nodes of `<root>/class/usbmisc`, and groups them by hardware.
    ///
    /// - Throws: ``SensorError/notFound(path:)`` when `root` is gone; a class that cannot be listed is a problem line.
    static func read(root: String) throws(SensorError) -> SysfsClass.Devices<CellularModem> {
        var problems: [String] = []
        // Each class on its own: a class that cannot be listed is a problem and hides only its own pieces.
        func pieces(_ read: () throws(SensorError) -> SysfsClass.Devices<Piece?>) -> [Piece] {
            do {
                let found = try read()
                problems += found.problems
                return found.devices.compactMap { $0 }
            } catch {
                problems.append(error.description)
                return []
            }
        }
        let wwan = pieces { () throws(SensorError) in
            try SysfsClass.read(
                root: root, className: "wwan", attributes: { _ in ["type"] },
                parseAt: { (name, read, directory) throws(SensorError) -> Piece? in
                    let parent = ParentDevice.read(directory, root: root)
                    if isNodeName(name, prefix: "wwan") { return Piece(kind: .wwanDevice(name), parent: parent) }
                    let type = read.texts["type"]?.trimmingWhitespace()
                    return Piece(kind: .port(Port(name: name, type: type, node: "/dev/" + name)), parent: parent)
                })
        }
        let net = pieces { () throws(SensorError) in
            try SysfsClass.read(
                root: root, className: "net", attributes: { _ in ["uevent"] },
                parseAt: { (name, read, directory) throws(SensorError) -> Piece? in
                    guard UeventFile.properties(read.texts["uevent"] ?? "")["DEVTYPE"] == "wwan" else { return nil }
                    return Piece(kind: .networkInterface(name), parent: ParentDevice.read(directory, root: root))
                })
        }
        let usbmisc = pieces { () throws(SensorError) in
            try SysfsClass.read(
                root: root, className: "usbmisc", include: { isNodeName($0, prefix: "cdc-wdm") },
                attributes: { _ in [] },
                parseAt: { (name, _, directory) throws(SensorError) -> Piece? in
                    Piece(kind: .controlNode("/dev/" + name), parent: ParentDevice.read(directory, root: root))
                })
        }
        guard SysfsFile.isDirectory(root) else { throw SensorError.notFound(path: root) }
        return SysfsClass.Devices(devices: group(wwan + net + usbmisc, root: root), problems: problems)
    }

    /// The pieces grouped by the hardware they belong to, in order of that hardware's path.
    static func group(_ pieces: [Piece], root: String) -> [CellularModem] {
        var groups: [String: [Piece]] = [:]
        var hardware: [String: ParentDevice] = [:]
        var alone = 0
        for piece in pieces {
            let parent = piece.parent.map { physicalDevice(of: $0, root: root) }
            let key: String
            if let parent {
                key = parent.path
            } else {
                // Without a parent there is nothing to join on: a modem of its own, after those with hardware.
                alone += 1
                key = "~\(alone)"
            }
            groups[key, default: []].append(piece)
            if let parent { hardware[key] = parent }
        }
        return groups.keys.sorted().map { key in
            var modem = Accumulator()
            for piece in groups[key] ?? [] { modem.add(piece) }
            return modem.modem(parent: hardware[key])
        }
    }

    /// The hardware a piece belongs to: through a `wwanN` device to the device it belongs to, and from a USB
    /// interface (`1-6:1.4`) up to its USB device (`1-6`), whose interfaces are a modem's functions.
    static func physicalDevice(of parent: ParentDevice, root: String) -> ParentDevice {
        // The link `name` of the device at `path` (a `DEVPATH`, below `root`).
        func link(_ path: String, _ name: String) -> BytePath {
            BytePath(root).appending(BytePath(String(path.drop { $0 == "/" }))).appending(BytePath(name))
        }
        var path = parent.path
        if SysfsLinks.targetName(link(path, "subsystem")) == "wwan",
            let above = SysfsLinks.devicePath(link(path, "device"), root: root)
        {
            path = above
        }
        let (above, name) = BytePath(path).parentAndName
        if SysfsLinks.targetName(link(path, "subsystem")) == "usb", name.displayText.contains(":") {
            path = above.displayText
        }
        guard path != parent.path else { return parent }
        return ParentDevice(
            path: path, driver: SysfsLinks.targetName(link(path, "driver")),
            bus: SysfsLinks.targetName(link(path, "subsystem")))
    }

    /// Collects one group's pieces into a modem.
    private struct Accumulator {
        var wwanDevices: [String] = []
        var ports: [Port] = []
        var networkInterfaces: [String] = []
        var controlNodes: [String] = []
        var drivers: Set<String> = []

        mutating func add(_ piece: Piece) {
            switch piece.kind {
            case .wwanDevice(let name): wwanDevices.append(name)
            case .port(let port): ports.append(port)
            case .networkInterface(let name): networkInterfaces.append(name)
            case .controlNode(let node): controlNodes.append(node)
            }
            if let driver = piece.parent?.driver { drivers.insert(driver) }
        }

        func modem(parent: ParentDevice?) -> CellularModem {
            CellularModem(
                parent: parent, wwanDevices: wwanDevices.sorted(), ports: ports.sorted { $0.name < $1.name },
                networkInterfaces: networkInterfaces.sorted(), controlNodes: controlNodes.sorted(),
                drivers: drivers.sorted())
        }
    }
}
