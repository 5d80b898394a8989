/// Every DRM connector of the machine at one moment, and the entries that could not be read.
public struct DisplayReading: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The connectors, by name.
    public let connectors: [DisplayConnector]
    /// Connector entries that are not readable connectors (a link loop, a file), each naming its path and what is
    /// wrong; they are left out of ``connectors``.
    public let problems: [String]

    /// Creates a reading.
    public init(connectors: [DisplayConnector], problems: [String] = []) {
        self.connectors = connectors
        self.problems = problems
    }

    /// The connectors with a display on them.
    public var connected: [DisplayConnector] { connectors.filter { $0.status == .connected } }

    /// Reads every connector under `<root>/class/drm`; one bad attribute or entry hides only itself.
    ///
    /// Text attributes are read up to the sysfs attribute limit, `edid` up to the largest EDID (32 KiB); a longer
    /// `edid` (a link to an endless file) is a note on its connector.
    ///
    /// - Throws: A ``SensorError`` when `<root>/class/drm` exists but cannot be listed, or `root` is gone.
    public static func read(root: String = "/sys") throws(SensorError) -> DisplayReading {
        let read = try SysfsClass.read(
            root: root, className: "drm", include: DisplayConnector.isConnectorName,
            attributes: { _ in DisplayConnector.attributeNames }, binaryAttributes: ["edid": EDID.maximumSize],
            parse: { (name, read, origin) in DisplayConnector.parse(name: name, read: read, origin: origin) })
        return DisplayReading(connectors: read.devices, problems: read.problems)
    }

    public var description: String {
        let lines = connectors.map(\.description) + problems
        return lines.isEmpty ? "no display connectors" : lines.joined(separator: "; ")
    }
}
