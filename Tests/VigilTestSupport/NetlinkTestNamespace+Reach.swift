import Foundation

/// The oracles of the `reach` tests: what the kernel's own tools say inside the namespace.
extension NetlinkTestNamespace {
    /// What `ip -j route get ADDRESS [mark MARK]` says, in the words the `reach` tests compare: `via GW dev IF src
    /// SRC`, `direct dev IF src SRC`, `local dev IF src SRC`, or the error as the problem code the `reach` source
    /// gives it (`no_route`, `unreachable_route`, `prohibited_route`, `blackholed`).
    package func routeGetWords(_ address: String, mark: UInt32? = nil) -> String {
        do {
            let entries =
                try mark.map { try json("route", "get", address, "mark", String($0)) }
                ?? json("route", "get", address)
            guard let entry = entries.first else { return "no answer" }
            let isLocal = (entry["type"] as? String) == "local"
            return Self.routeWords(
                isLocal: isLocal, gateway: entry["gateway"] as? String, interface: entry["dev"] as? String,
                source: entry["prefsrc"] as? String)
        } catch {
            let text = "\(error)"
            for (message, code) in [
                ("Network is unreachable", "no_route"), ("No route to host", "unreachable_route"),
                ("Permission denied", "prohibited_route"), ("Invalid argument", "blackholed"),
            ] where text.contains(message) {
                return code
            }
            return text
        }
    }

    /// A route in the words of ``routeGetWords(_:mark:)``.
    package static func routeWords(isLocal: Bool, gateway: String?, interface: String?, source: String?) -> String {
        let how = isLocal ? "local" : gateway.map { "via \($0)" } ?? "direct"
        return "\(how) dev \(interface ?? "?") src \(source ?? "-")"
    }

    /// What a TCP connect from the namespace to `address` port `port` answers within a second (bash's `/dev/tcp`):
    /// `answered`, `refused` or `timed_out`, the words of the `reach` source's TCP answer.
    package func tcpConnectAnswer(_ address: String, _ port: Int) -> String {
        do {
            try shell("timeout 1 bash -c 'exec 3<>/dev/tcp/\(address)/\(port)'")
            return "answered"
        } catch {
            return "\(error)".contains("refused") ? "refused" : "timed_out"
        }
    }

    /// What a TCP connect from the namespace to an IPv4 `address` port `port` answers within a second when its
    /// socket carries the firewall mark `mark` (`SO_MARK`, which bash's `/dev/tcp` cannot set, so Python's socket
    /// module makes it): `answered`, `refused`, `timed_out`, or `failed` when the connect fails otherwise (no route).
    package func markedTCPConnectAnswer(_ address: String, _ port: Int, mark: UInt32) -> String {
        let script = """
            import socket
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_MARK, \(mark))
            s.settimeout(1)
            try:
                s.connect(('\(address)', \(port)))
                print('answered')
            except ConnectionRefusedError:
                print('refused')
            except TimeoutError:
                print('timed_out')
            except OSError:
                print('failed')
            """
        let answer = try? output("python3", "-c", script)
        return answer?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "no answer from python3"
    }

    /// nftables rules in the namespace: incoming TCP to port `dropping` dropped, to `rejecting` rejected with a reset.
    package func dropAndRejectTCP(dropping: Int, rejecting: Int) throws {
        try shell(
            "nft add table inet vigil && nft add chain inet vigil input '{ type filter hook input priority 0; }'"
                + " && nft add rule inet vigil input tcp dport \(dropping) drop"
                + " && nft add rule inet vigil input tcp dport \(rejecting) reject with tcp reset")
    }
}
