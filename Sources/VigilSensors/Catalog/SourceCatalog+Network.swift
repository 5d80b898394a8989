import Vigil

extension SourceCatalog {
    /// The netlink sources: `network` (interfaces, routes, connectivity) and `devices` (uevents), in
    /// ``Options/networkNamespace`` when set.
    ///
    /// The `network` entry's readings begin with the complete first dump of the kernel's tables (or why they cannot
    /// be read): the monitor's `pending` reading, which has no path yet, is not passed on.
    static var networkEntries: [Entry] {
        [
            Entry(
                id: "network", name: networkName,
                availability: { options in networkMonitor(options).availability },
                build: { options, _ in
                    let monitor = networkMonitor(options)
                    let dumped = monitor.readings.filter { reading in
                        if case .pending = reading.status { return false }
                        return true
                    }
                    return CatalogSource(
                        id: "network", name: networkName, source: monitor, readings: dumped)
                }),
            .source(id: "devices", name: "Device hotplug (kernel uevents)") { options, _ in
                DeviceMonitor(namespace: options.networkNamespacePath, eventLoop: options.eventLoop)
            },
        ]
    }

    private static let networkName = "Network interfaces, routes and connectivity (rtnetlink)"

    private static func networkMonitor(_ options: Options) -> NetworkMonitor {
        NetworkMonitor(
            namespace: options.networkNamespacePath, root: options.sysfsRoot, eventLoop: options.eventLoop)
    }
}
