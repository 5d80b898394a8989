import Foundation

/// `ip monitor link address route` output turned into the lines `vigil watch network --changes` prints for the same
/// kernel messages: the oracle of ``VigilNetworkChangesTests``.
///
/// ip prints every message in full; vigil prints what changed. So the transcript remembers what ip printed last for
/// each link, address and route key, and says what differs: a link's first message is `link add`, a later one a
/// `link change` naming what changed (none when nothing vigil shows changed), an address's later message an
/// `address change`, a route with a key ip already printed a `route change` (`ip route replace`). It drops what ip
/// prints beyond vigil: the `local` table (the machine's own addresses, which the address lines say), `proto`,
/// `scope`, `src`, `pref`, `linkdown`, address lifetimes and labels, a link's qdisc, group, peer and `M-DOWN` (the
/// peer's state).
struct IPMonitorTranscript {
    private struct Link {
        var name: String
        var flags: [String]
        var mtu: String
        var state: String
        var address: String
    }

    /// The lines so far, in vigil's words.
    private(set) var lines: [String] = []
    private var links: [String: Link] = [:]
    private var addresses: [String: (words: [String], scope: String)] = [:]
    private var routeKeys: Set<[String]> = []

    /// The transcript of ip's complete output so far (a last line without its newline waits for the next read).
    init(_ output: String) {
        var records: [[Substring]] = []
        for line in output.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            if line.first == " " || line.first == "\t" {
                if !records.isEmpty { records[records.count - 1].append(line) }
            } else {
                records.append([line])
            }
        }
        for record in records { read(record) }
    }

    private mutating func read(_ record: [Substring]) {
        var words = record[0].split(separator: " ").map(String.init)
        let deleted = words.first == "Deleted"
        if deleted { words.removeFirst() }
        guard let first = words.first else { return }
        if first.hasSuffix(":"), Int(first.dropLast()) != nil {
            if words.count > 2, words[1].hasSuffix(":") {
                readLink(words, continuation: record.dropFirst(), deleted: deleted)
            } else {
                readAddress(words, deleted: deleted)
            }
        } else {
            readRoute(words, deleted: deleted)
        }
    }

    // `3: va@pa: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP group default`, then
    // `    link/ether 42:4f:e4:db:13:82 brd ff:ff:ff:ff:ff:ff`.
    private mutating func readLink(_ words: [String], continuation: ArraySlice<Substring>, deleted: Bool) {
        let index = words[0]
        let name = String(words[1].dropLast().split(separator: "@")[0])
        let flags = words[2].trimmingCharacters(in: ["<", ">"]).split(separator: ",").map(String.init)
            .filter { $0 != "M-DOWN" }
        let value = { (key: String) in words.firstIndex(of: key).map { words[$0 + 1] } ?? "none" }
        let linkAddress = continuation.first?.split(separator: " ").dropFirst().first.map(String.init) ?? "none"
        let link = Link(name: name, flags: flags, mtu: value("mtu"), state: value("state"), address: linkAddress)
        guard !deleted else {
            links[index] = nil
            lines.append("link del \(name)")
            return
        }
        defer { links[index] = link }
        guard let old = links[index] else {
            lines.append("link add \(name) <\(flags.joined(separator: ","))> mtu \(link.mtu) state \(link.state)")
            return
        }
        var changes: [String] = []
        if name != old.name { changes.append("name \(name)") }
        if flags.contains("UP") != old.flags.contains("UP") { changes.append(flags.contains("UP") ? "up" : "down") }
        if flags.contains("LOWER_UP") != old.flags.contains("LOWER_UP") {
            changes.append(flags.contains("LOWER_UP") ? "carrier on" : "carrier off")
        }
        let said: Set = ["UP", "LOWER_UP", "NO-CARRIER"]
        changes += flags.filter { !said.contains($0) && !old.flags.contains($0) }.map { "+" + $0 }
        changes += old.flags.filter { !said.contains($0) && !flags.contains($0) }.map { "-" + $0 }
        if link.state != old.state { changes.append("state \(link.state)") }
        if link.mtu != old.mtu { changes.append("mtu \(link.mtu)") }
        if link.address != old.address { changes.append("address \(link.address)") }
        if !changes.isEmpty { lines.append("link change \(old.name) " + changes.joined(separator: " ")) }
    }

    // `3: va    inet6 2001:db8::1/64 scope global tentative`; IPv4 ends with the label (`scope global va`).
    private mutating func readAddress(_ words: [String], deleted: Bool) {
        guard words.count > 3 else { return }
        let device = words[1]
        let address = words[3]
        let key = words[0] + " " + address
        var rest = Array(words.dropFirst(4))
        var scope = "global"
        for option in ["brd", "peer", "scope", "metric"] {
            guard let at = rest.firstIndex(of: option), at + 1 < rest.count else { continue }
            if option == "scope" { scope = rest[at + 1] }
            rest.removeSubrange(at...at + 1)
        }
        if rest.last == device { rest.removeLast() }
        let identity = "\(address) dev \(device)"
        guard !deleted else {
            addresses[key] = nil
            lines.append("address del \(identity)")
            return
        }
        defer { addresses[key] = (rest, scope) }
        guard let old = addresses[key] else {
            lines.append((["address add \(identity)"] + rest).joined(separator: " "))
            return
        }
        var changes = old.words.filter { !rest.contains($0) }.map { "-" + $0 }
        changes += rest.filter { !old.words.contains($0) }.map { "+" + $0 }
        if scope != old.scope { changes.append("scope \(scope)") }
        if !changes.isEmpty { lines.append("address change \(identity) " + changes.joined(separator: " ")) }
    }

    // `10.0.0.0/24 dev va proto kernel scope link src 10.0.0.1`; another type than unicast comes first (`local …`).
    private mutating func readRoute(_ words: [String], deleted: Bool) {
        let types: Set = [
            "local", "broadcast", "multicast", "anycast", "unreachable", "blackhole", "prohibit", "throw",
        ]
        guard let first = words.first, !types.contains(first), !words.contains("local") else { return }
        var kept: [String] = []
        var index = 0
        while index < words.count {
            if ["proto", "scope", "src", "pref"].contains(words[index]) {
                index += 2
                continue
            }
            if words[index] != "linkdown" { kept.append(words[index]) }
            index += 1
        }
        let value = { (key: String) in kept.firstIndex(of: key).map { kept[$0 + 1] } ?? "" }
        let key = [kept[0], value("table"), value("metric"), value("tos")]
        let line = kept.joined(separator: " ")
        if deleted {
            routeKeys.remove(key)
            lines.append("route del " + line)
        } else {
            lines.append((routeKeys.insert(key).inserted ? "route add " : "route change ") + line)
        }
    }
}
