extension InputDevice {
    /// The attributes read of an input device.
    static let attributeNames = [
        "name", "phys", "id/bustype", "id/vendor", "id/product", "capabilities/ev", "capabilities/key",
        "capabilities/rel", "capabilities/abs", "capabilities/sw", "properties",
    ]

    /// The handler prefixes whose nodes a device may have: evdev (`eventN`), mousedev (`mouseN`), joydev (`jsN`).
    static let handlerPrefixes = ["event", "mouse", "js"]

    /// Reads every device under `<root>/class/input` (`inputN`; the handler entries beside them, `eventN`, `mice`,
    /// are listed with their device).
    ///
    /// A device whose capability bitmap cannot be parsed is a problem line; a missing bitmap is an empty one.
    ///
    /// - Throws: A ``SensorError`` when the class directory exists but cannot be listed, or `root` is gone.
    static func read(root: String) throws(SensorError) -> SysfsClass.Devices<InputDevice> {
        var result = try SysfsClass.read(
            root: root, className: "input", include: { isNodeName($0, prefix: "input") },
            attributes: { _ in attributeNames },
            parseAt: { (name, read, directory) throws(SensorError) in
                try parse(name: name, read: read, handlers: handlers(in: directory), origin: directory.displayText)
            })
        result.devices.sort { Camera.nodeNumber($0.name) < Camera.nodeNumber($1.name) }
        return result
    }

    /// One device from its attributes and handler names.
    ///
    /// - Throws: ``SensorError/malformedValue(path:text:expected:)`` for a capability bitmap that is not one.
    static func parse(name: String, read: AttributeTexts, handlers: [String], origin: String) throws(SensorError)
        -> InputDevice
    {
        func bitmap(_ attribute: String) throws(SensorError) -> CapabilityBitmap {
            guard let text = read.texts[attribute] else { return CapabilityBitmap() }
            return try CapabilityBitmap(text: text, path: origin + "/" + attribute)
        }
        func hex(_ attribute: String) -> Int? {
            read.texts[attribute].flatMap { Int($0.trimmingWhitespace(), radix: 16) }.flatMap {
                (0...0xFFFF).contains($0) ? $0 : nil
            }
        }
        let capabilities = InputCapabilities(
            events: try bitmap("capabilities/ev"), keys: try bitmap("capabilities/key"),
            relativeAxes: try bitmap("capabilities/rel"), absoluteAxes: try bitmap("capabilities/abs"),
            switches: try bitmap("capabilities/sw"), properties: try bitmap("properties"))
        let label = read.texts["name"]?.trimmingWhitespace()
        let physical = read.texts["phys"]?.trimmingWhitespace()
        let event = handlers.first { isNodeName($0, prefix: "event") }
        return InputDevice(
            name: name, label: label, physicalPath: physical?.isEmpty == false ? physical : nil,
            busType: hex("id/bustype"), vendor: hex("id/vendor"), product: hex("id/product"), handlers: handlers,
            eventNode: event.map { "/dev/input/" + $0 }, kind: capabilities.kind)
    }

    /// The handler entries of the device directory (`event3`, `mouse0`), sorted; none when it cannot be listed.
    static func handlers(in directory: BytePath) -> [String] {
        let entries = (try? directory.listDirectory()) ?? []
        return entries.compactMap(\.string).filter { name in
            handlerPrefixes.contains { isNodeName(name, prefix: $0) }
        }.sorted()
    }
}
