import VigilSensors

/// What changed from one ``NetworkPath`` to the next, as the lines `ip monitor` prints for it.
///
/// Links are matched by index, addresses by interface, address and prefix (the kernel's identity, so a flags change
/// such as the end of duplicate address detection is one `change`), routes by the kernel's key (destination, table,
/// metric, type of service), so a replaced route is one `change`. Within one diff, links that appeared come first and
/// links that went last, with addresses and routes between: the kernel's order when it adds or removes a link with
/// its addresses. Only a link's own attributes make a link `change`; its summary state follows its addresses, which
/// have lines of their own.
struct NetworkPathDiff {
    let before: NetworkPath
    let after: NetworkPath

    init(from before: NetworkPath, to after: NetworkPath) {
        self.before = before
        self.after = after
    }

    /// Each line's kind (`link`, `address`, `route`, `status`), action (`add`, `change`, `del`, or empty for
    /// `status`) and detail.
    var lines: [(kind: String, action: String, detail: String)] {
        let oldLinks = Dictionary(before.interfaces.map { ($0.index, $0) }, uniquingKeysWith: { first, _ in first })
        let newLinks = Dictionary(after.interfaces.map { ($0.index, $0) }, uniquingKeysWith: { first, _ in first })
        var lines: [(kind: String, action: String, detail: String)] = []
        for link in after.interfaces where oldLinks[link.index] == nil {
            lines.append(("link", "add", link.ipSummary))
        }
        for link in after.interfaces {
            guard let old = oldLinks[link.index], let changes = link.ipChanges(from: old) else { continue }
            lines.append(("link", "change", old.name + " " + changes))
        }
        let names = oldLinks.mapValues(\.name).merging(newLinks.mapValues(\.name)) { _, new in new }
        lines += addressLines(names: names).map { ("address", $0.action, $0.detail) }
        lines += routeLines(names: names).map { ("route", $0.action, $0.detail) }
        for link in before.interfaces where newLinks[link.index] == nil {
            lines.append(("link", "del", link.name))
        }
        if before.status != after.status { lines.append(("status", "", after.status.description)) }
        return lines
    }

    private struct AddressKey: Hashable {
        var interfaceIndex: Int
        var address: IPAddress
        var prefixLength: Int

        init(_ address: InterfaceAddress) {
            interfaceIndex = address.interfaceIndex
            self.address = address.address
            prefixLength = address.prefixLength
        }
    }

    private func addressLines(names: [Int: String]) -> [(action: String, detail: String)] {
        let old = Dictionary(
            before.interfaces.flatMap(\.addresses).map { (AddressKey($0), $0) }, uniquingKeysWith: { first, _ in first }
        )
        let new = Dictionary(
            after.interfaces.flatMap(\.addresses).map { (AddressKey($0), $0) }, uniquingKeysWith: { first, _ in first })
        let identity = { (address: InterfaceAddress) in
            "\(address.address)/\(address.prefixLength) dev "
                + (names[address.interfaceIndex] ?? "if\(address.interfaceIndex)")
        }
        var lines: [(action: String, detail: String)] = []
        for address in after.interfaces.flatMap(\.addresses) {
            guard let previous = old[AddressKey(address)] else {
                lines.append(("add", ([identity(address)] + address.ipFlagWords).joined(separator: " ")))
                continue
            }
            if let changes = address.ipChanges(from: previous) {
                lines.append(("change", identity(address) + " " + changes))
            }
        }
        for address in before.interfaces.flatMap(\.addresses) where new[AddressKey(address)] == nil {
            lines.append(("del", identity(address)))
        }
        return lines
    }

    private func routeLines(names: [Int: String]) -> [(action: String, detail: String)] {
        var removed = before.routes.filter { !after.routes.contains($0) }
        var lines: [(action: String, detail: String)] = []
        for route in after.routes where !before.routes.contains(route) {
            if let replaced = removed.firstIndex(where: { $0.ipKey == route.ipKey }) {
                removed.remove(at: replaced)
                lines.append(("change", route.ipLine(names: names)))
            } else {
                lines.append(("add", route.ipLine(names: names)))
            }
        }
        return lines + removed.map { ("del", $0.ipLine(names: names)) }
    }
}
