import Vigil
import VigilSensors

extension Catalog {
    /// The netlink sources: `vigil watch network [--netns NAME]` and `vigil watch devices [--netns NAME]`.
    static var networkEntries: [CatalogEntry] {
        [
            CatalogEntry(
                id: "network", name: "Network interfaces, routes and connectivity (rtnetlink)", argumentName: nil,
                availability: { context in makeNetworkMonitor(context).availability },
                start: { context, _, emitter in
                    // Start first, then subscribe: the subject then replays the complete first path rather than
                    // the empty one it holds before the first dump.
                    let monitor = makeNetworkMonitor(context)
                    try monitor.startMonitoring()
                    let subscription = monitor.readings.subscribe(on: .queue(emitter.queue)) { path in
                        emitter.emit(source: "network", reading: path)
                    }
                    return RunningSource(monitor: monitor, subscription: subscription)
                }),
            .source(id: "devices", name: "Device hotplug (kernel uevents)") { context, _ in
                DeviceMonitor(namespace: namespacePath(context))
            },
        ]
    }

    private static func makeNetworkMonitor(_ context: CatalogContext) -> NetworkMonitor {
        NetworkMonitor(namespace: namespacePath(context), sysfsRoot: context.sysRoot)
    }

    /// `--netns NAME` names a namespace under `/var/run/netns` (as `ip netns add` creates); a value with a slash is
    /// taken as a path (`/proc/PID/ns/net`).
    private static func namespacePath(_ context: CatalogContext) -> String? {
        guard let name = context.networkNamespace else { return nil }
        return name.contains("/") ? name : "/var/run/netns/" + name
    }
}
