import Vigil
import VigilSensors

/// One change between two network snapshots, printed as one line in `ip monitor`'s words: `link add v0 <BROADCAST>
/// mtu 1500 state DOWN`, `link change v0 mtu 1400`, `address change 2001:db8::1/64 dev v0 -tentative`,
/// `route add 10.1.0.0/16 via 10.0.0.254 dev v0`, `status satisfied`.
struct NetworkChange: Sendable, Encodable, CustomStringConvertible, EnvelopeDescribed {
    /// `link`, `address`, `route` or `status`.
    var kind: String
    /// `add`, `del` or `change`; empty for `status`.
    var action: String
    /// The object and, for a change, what changed, as `ip monitor` would say it.
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
/// each later one becomes the list of what changed (``NetworkPathDiff``).
final class NetworkDiffer: Sendable {
    private let previous = FutexMutex<NetworkPath?>(nil)

    /// The changes from the previous snapshot to `path` (pending and unavailable readings pass through as they are).
    func changes(to path: NetworkPath) -> any CatalogReading {
        let before = previous.withLock { previous in
            defer { previous = path }
            return previous
        }
        let lines =
            before.map { NetworkPathDiff(from: $0, to: path).lines } ?? [("status", "", path.status.description)]
        return NetworkChanges(
            changes: lines.map { NetworkChange(kind: $0.kind, action: $0.action, detail: $0.detail, time: path.time) })
    }
}
