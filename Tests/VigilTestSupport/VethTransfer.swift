import Foundation
import VigilSensors

/// Two network namespaces joined by a veth pair (`v0` in ``near``, `v1` in ``far``), quiet enough that a transfer is
/// known to the byte: IPv6 is off in both (no neighbour discovery, MLD or router solicitations), and `v0` sends to
/// ``silentPeer`` through a permanent neighbour entry, so no ARP goes out and nothing answers.
package final class VethTransfer {
    /// Where `v0` lives, with 10.9.0.1/24.
    package let near: NetlinkTestNamespace
    /// Where `v1` lives, with 10.9.0.2/24.
    package let far: NetlinkTestNamespace
    /// An address on `v0`'s network that no interface has, with a permanent neighbour entry in ``near``.
    package static let silentPeer = "10.9.0.3"
    /// The bytes a UDP datagram of `payload` bytes takes on the wire of `v0`: Ethernet, IPv4 and UDP headers.
    package static func frameBytes(payload: Int) -> Int { payload + 14 + 20 + 8 }

    /// Creates both namespaces and the pair, both ends up.
    package init() throws {
        near = try NetlinkTestNamespace()
        do {
            far = try NetlinkTestNamespace()
        } catch {
            near.remove()
            throw error
        }
        do {
            for namespace in [near, far] {
                try namespace.shell(
                    "echo 1 > /proc/sys/net/ipv6/conf/default/disable_ipv6; "
                        + "echo 1 > /proc/sys/net/ipv6/conf/all/disable_ipv6")
            }
            try near.ip("link", "add", "v0", "type", "veth", "peer", "name", "v1", "netns", far.name)
            try far.ipBatch(["addr add 10.9.0.2/24 dev v1", "link set v1 up"])
            try near.ipBatch([
                "addr add 10.9.0.1/24 dev v0", "link set v0 up",
                "neigh add \(Self.silentPeer) lladdr 02:00:00:00:00:03 dev v0 nud permanent",
            ])
        } catch {
            remove()
            throw error
        }
    }

    /// Deletes both namespaces, and the pair with them.
    package func remove() {
        near.remove()
        far.remove()
    }

    /// Sends `count` UDP datagrams of `payload` bytes from ``near`` to ``silentPeer``, through `v0`.
    package func sendDatagrams(_ count: Int, payload: Int) throws {
        _ = try near.output(
            "bash", "-c",
            "for i in $(seq 1 \(count)); do head -c \(payload) /dev/zero > /dev/udp/\(Self.silentPeer)/9; done")
    }

    /// Starts sending a UDP datagram of `payload` bytes from ``near`` to ``silentPeer`` every 50 ms, until the
    /// returned process is stopped: traffic that goes on while a test waits, however seldom its wait looks.
    package func startSendingDatagrams(payload: Int) throws -> ChildProcess {
        try ChildProcess(
            "/usr/bin/env",
            [
                "ip", "netns", "exec", near.name, "bash", "-c",
                "while :; do head -c \(payload) /dev/zero > /dev/udp/\(Self.silentPeer)/9; sleep 0.05; done",
            ])
    }

    /// The counters `ip -s -j link show NAME` gives in `namespace`.
    package static func ipTraffic(_ name: String, in namespace: NetlinkTestNamespace) throws -> InterfaceTraffic {
        let links = try namespace.json("-s", "link", "show", "dev", name)
        guard let stats = links.first?["stats64"] as? [String: Any], let rx = stats["rx"] as? [String: Any],
            let tx = stats["tx"] as? [String: Any]
        else { throw NetlinkTestFailure("ip -s -j link show \(name) gave no stats64: \(links)") }
        func counters(_ object: [String: Any]) -> InterfaceTraffic.Counters {
            func number(_ key: String) -> UInt64 { (object[key] as? NSNumber)?.uint64Value ?? .max }
            return .init(
                bytes: number("bytes"), packets: number("packets"), errors: number("errors"),
                dropped: number("dropped"))
        }
        return InterfaceTraffic(receive: counters(rx), transmit: counters(tx))
    }
}
