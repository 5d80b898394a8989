/// Space on the file systems of given mount points, in bytes, from `statvfs(3)`; polled (default every 10 s).
public typealias StorageMonitor = PolledMonitor<StorageReading>

extension PolledMonitor where Value == StorageReading {
    /// Creates a storage monitor; nothing is read until it starts, and start returns without reading: the first
    /// `statvfs` runs on the event loop (on a dead network mount it can block), so readings stay `pending` until it
    /// returns.
    ///
    /// - Parameters:
    ///   - mountPoints: The paths to report (default `/`); each is asked about with `statvfs(3)`.
    ///   - updateInterval: How often they are read (default 10 s).
    ///   - eventLoop: The loop that runs the timer.
    public convenience init(
        mountPoints: [BytePath] = ["/"], updateInterval: Duration = .seconds(10), eventLoop: EventLoop = .shared
    ) {
        self.init(
            name: "Storage", updateInterval: updateInterval, eventLoop: eventLoop,
            availability: {
                for mountPoint in mountPoints {
                    do {
                        _ = try StorageUsage.read(mountPoint: mountPoint)
                    } catch {
                        return .unavailable(reason: .missingDevice, detail: String(describing: error))
                    }
                }
                return mountPoints.isEmpty
                    ? .unavailable(reason: .missingDevice, detail: "no mount points given")
                    : .available
            }, onStart: nil, firstRead: .onLoop,
            read: { () throws(SensorError) in
                var volumes: [StorageUsage] = []
                for mountPoint in mountPoints { volumes.append(try StorageUsage.read(mountPoint: mountPoint)) }
                return StorageReading(volumes: volumes)
            })
    }
}

/// Space on several file systems at one moment; bytes.
public struct StorageReading: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// One entry per mount point asked about, in the order given.
    public let volumes: [StorageUsage]

    /// Creates a reading.
    public init(volumes: [StorageUsage]) { self.volumes = volumes }

    public var description: String { volumes.map(\.description).joined(separator: "; ") }
}
