import Synchronization
import Vigil
import VigilSensors

/// One change between two network snapshots, printed as one line like `ip monitor` (`link add dummy0 up`,
/// `address del 10.0.0.1/24 dev dummy0`, `route add default via 10.0.0.254 dev eth0`, `status satisfied`).
struct NetworkChange: Sendable, Encodable, CustomStringConvertible, EnvelopeDescribed {
    /// `link`, `address`, `route` or `status`.
    var kind: String
    /// `add`, `del` or `change`; empty for `status`.
    var action: String
    /// What changed, as `ip monitor` would say it.
    var detail: String
    var time: ReadingTime

    var description: String { [kind, action, detail].filter { !$0.isEmpty }.joined(separator: " ") }

    var envelopeHead: EnvelopeHead { EnvelopeHead(time: time, event: kind, body: self, omitted: ["kind"]) }

    private enum CodingKeys: String, CodingKey { case action, detail }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if !action.isEmpty { try container.encode(action, forKey: .action) }
        try container.encode(detail, forKey: .detail)
    }
}

/// The changes between two snapshots, printed one line each.
struct NetworkChanges: Sendable, Encodable, CustomStringConvertible, ReadingBatch {
    var changes: [NetworkChange]
    var parts: [any CatalogReading] { changes }
    var description: String { changes.map(\.description).joined(separator: "; ") }
}

/// Diffs successive ``NetworkPath`` snapshots: the first one only sets the baseline (and prints the status once),
/// each later one becomes the list of what changed.
final class NetworkDiffer: Sendable {
    private let previous = FutexMutex<NetworkPath?>(nil)

    /// The changes from the previous snapshot to `path` (pending and unavailable readings pass through as they are).
    func changes(to path: NetworkPath) -> any CatalogReading {
        let before = previous.withLock { previous in
            defer { previous = path }
            return previous
        }
        let time = path.time
        func change(_ kind: String, _ action: String, _ detail: String) -> NetworkChange {
            NetworkChange(kind: kind, action: action, detail: detail, time: time)
        }
        guard let before else { return NetworkChanges(changes: [change("status", "", path.status.description)]) }
        var changes: [NetworkChange] = []
        let oldLinks = Dictionary(before.interfaces.map { ($0.index, $0) }, uniquingKeysWith: { first, _ in first })
        let newLinks = Dictionary(path.interfaces.map { ($0.index, $0) }, uniquingKeysWith: { first, _ in first })
        for interface in path.interfaces {
            let link = "\(interface.name) \(interface.state)"
            guard let old = oldLinks[interface.index] else {
                changes.append(change("link", "add", link))
                continue
            }
            if old.name != interface.name || old.state != interface.state || old.flags != interface.flags
                || old.mtu != interface.mtu || old.hardwareAddress != interface.hardwareAddress
            {
                changes.append(change("link", "change", link))
            }
        }
        for interface in before.interfaces where newLinks[interface.index] == nil {
            changes.append(change("link", "del", interface.name))
        }
        let name = { (index: Int) in newLinks[index]?.name ?? oldLinks[index]?.name ?? "#\(index)" }
        let addressLine = { (address: InterfaceAddress) in
            "\(address.address)/\(address.prefixLength) dev \(name(address.interfaceIndex))"
        }
        let oldAddresses = Set(before.interfaces.flatMap(\.addresses))
        let newAddresses = Set(path.interfaces.flatMap(\.addresses))
        for address in path.interfaces.flatMap(\.addresses) where !oldAddresses.contains(address) {
            changes.append(change("address", "add", addressLine(address)))
        }
        for address in before.interfaces.flatMap(\.addresses) where !newAddresses.contains(address) {
            changes.append(change("address", "del", addressLine(address)))
        }
        let routeLine = { (route: DefaultRoute) in
            route.description + route.interfaceIndexes.map { " dev " + name($0) }.joined()
        }
        for route in path.defaultRoutes where !before.defaultRoutes.contains(route) {
            changes.append(change("route", "add", routeLine(route)))
        }
        for route in before.defaultRoutes where !path.defaultRoutes.contains(route) {
            changes.append(change("route", "del", routeLine(route)))
        }
        if before.status != path.status { changes.append(change("status", "", path.status.description)) }
        return NetworkChanges(changes: changes)
    }
}
