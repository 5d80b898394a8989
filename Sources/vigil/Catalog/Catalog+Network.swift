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
                    // The monitor's readings begin pending; the first line shown is the complete first dump (or
                    // why the kernel cannot be read).
                    let monitor = makeNetworkMonitor(context)
                    let subscription = monitor.readings.subscribe(on: .queue(emitter.queue)) { path in
                        guard path.phase != .pending else { return }
                        emitter.emit(source: "network", reading: path)
                    }
                    try monitor.startMonitoring()
                    return RunningSource(monitor: monitor, subscription: subscription)
                }),
            .source(id: "devices", name: "Device hotplug (kernel uevents)") { context, _ in
                DeviceMonitor(namespace: namespacePath(context))
            },
        ]
    }

    private static func makeNetworkMonitor(_ context: CatalogContext) -> NetworkMonitor {
        NetworkMonitor(namespace: namespacePath(context), root: context.sysRoot)
    }

    /// `--netns NAME` names a namespace under `/var/run/netns` (as `ip netns add` creates); a value with a slash is
    /// taken as a path (`/proc/PID/ns/net`).
    private static func namespacePath(_ context: CatalogContext) -> String? {
        guard let name = context.networkNamespace else { return nil }
        return name.contains("/") ? name : "/var/run/netns/" + name
    }
}
