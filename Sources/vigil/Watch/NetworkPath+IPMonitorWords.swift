import VigilSensors

// How `ip monitor` (iproute2's print_linkinfo, print_addrinfo and print_route) names what a network snapshot holds,
// so `watch network --changes` reads like it and a test can compare the two line for line.

extension NetworkInterface {
    /// `IFF_*` bits in the order `ip link` prints them, with its names; `IFF_RUNNING` is left out, as ip leaves it.
    private static let ipFlagNames: [(UInt32, String)] = [
        (0x8, "LOOPBACK"), (0x2, "BROADCAST"), (0x10, "POINTOPOINT"), (0x1000, "MULTICAST"), (0x80, "NOARP"),
        (0x200, "ALLMULTI"), (0x100, "PROMISC"), (0x20, "NOTRAILERS"), (0x4, "DEBUG"), (0x8000, "DYNAMIC"),
        (0x4000, "AUTOMEDIA"), (0x2000, "PORTSEL"), (0x400, "MASTER"), (0x800, "SLAVE"), (0x1, "UP"),
        (0x10000, "LOWER_UP"), (0x20000, "DORMANT"), (0x40000, "ECHO"),
    ]

    /// The bits the words `up`/`down`, `carrier on`/`off` and `state` already say (`IFF_RUNNING` is the operational
    /// state being up or unknown).
    private static let saidOtherwise = InterfaceFlags([.up, .lowerUp, .running]).rawValue

    /// The flags between angle brackets, as `ip link` prints them: `NO-CARRIER` first when up without `IFF_RUNNING`.
    var ipFlags: String {
        let noCarrier = isUp && !flags.contains(.running) ? ["NO-CARRIER"] : []
        let names = Self.ipFlagNames.filter { flags.rawValue & $0.0 != 0 }.map(\.1)
        return "<" + (noCarrier + names).joined(separator: ",") + ">"
    }

    /// What `link add` says: for example `v0 <BROADCAST,NOARP> mtu 1500 state DOWN`.
    var ipSummary: String {
        ([name, ipFlags] + (mtu.map { ["mtu \($0)"] } ?? []) + ["state \(operationalStatus)"]).joined(separator: " ")
    }

    /// What changed since `old`, in a fixed order: `name NEW`, `up`/`down`, `carrier on`/`off`, other flags as
    /// `+NAME`/`-NAME`, `state STATE`, `mtu N`, `address MAC`; `nil` when nothing of the link itself changed.
    ///
    /// `IFF_RUNNING` follows the operational state, so it is named only when it changed alone.
    func ipChanges(from old: NetworkInterface) -> String? {
        var words: [String] = []
        if name != old.name { words.append("name \(name)") }
        if isUp != old.isUp { words.append(isUp ? "up" : "down") }
        if hasCarrier != old.hasCarrier { words.append(hasCarrier ? "carrier on" : "carrier off") }
        let gained = flags.rawValue & ~old.flags.rawValue
        let lost = old.flags.rawValue & ~flags.rawValue
        for (bit, flagName) in Self.ipFlagNames where bit & Self.saidOtherwise == 0 {
            if gained & bit != 0 { words.append("+" + flagName) }
            if lost & bit != 0 { words.append("-" + flagName) }
        }
        if operationalStatus != old.operationalStatus { words.append("state \(operationalStatus)") }
        if mtu != old.mtu { words.append("mtu " + (mtu.map(String.init) ?? "none")) }
        if hardwareAddress != old.hardwareAddress { words.append("address " + (hardwareAddress ?? "none")) }
        if words.isEmpty, flags.contains(.running) != old.flags.contains(.running) {
            words.append(flags.contains(.running) ? "+RUNNING" : "-RUNNING")
        }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }
}

extension InterfaceAddress {
    /// `IFA_F_*` bits in the order `ip address` prints them. Bit 0x01 is `secondary` for IPv4 and `temporary` for
    /// IPv6; `IFA_F_PERMANENT` (0x80) is printed in reverse, as `dynamic` when it is missing.
    private static let ipFlagNames: [(UInt32, String)] = [
        (0x01, "secondary"), (0x02, "nodad"), (0x04, "optimistic"), (0x08, "dadfailed"), (0x10, "home"),
        (0x20, "deprecated"), (0x40, "tentative"), (0x80, "dynamic"), (0x100, "mngtmpaddr"),
        (0x200, "noprefixroute"), (0x400, "autojoin"), (0x800, "stable-privacy"),
    ]

    /// The flags as `ip address` prints them, for example `["tentative"]` or `["temporary", "dynamic"]`.
    var ipFlagWords: [String] {
        Self.ipFlagNames.compactMap { bit, name in
            if bit == 0x80 { return flags.rawValue & bit == 0 ? name : nil }
            guard flags.rawValue & bit != 0 else { return nil }
            return bit == 0x01 && address.family == .ipv6 ? "temporary" : name
        }
    }

    /// What changed since `old` (the same address): flags gone as `-NAME`, flags come as `+NAME`, then
    /// `scope SCOPE`; `nil` when nothing did.
    func ipChanges(from old: InterfaceAddress) -> String? {
        let words = ipFlagWords
        let oldWords = old.ipFlagWords
        var changes = oldWords.filter { !words.contains($0) }.map { "-" + $0 }
        changes += words.filter { !oldWords.contains($0) }.map { "+" + $0 }
        if scope != old.scope { changes.append("scope \(scope)") }
        return changes.isEmpty ? nil : changes.joined(separator: " ")
    }
}

extension Route {
    /// What the kernel keys a route by: `ip route replace` changes the route with the same key.
    var ipKey: [String] {
        ["\(destination)/\(prefixLength)", "\(table)", "\(metric)", "\(typeOfService)"]
    }

    /// The route as `ip route` prints it without protocol, scope, source and preference: for example
    /// `10.1.0.0/16 via 10.0.0.254 dev v0`, `default via 2001:db8::fe dev v0 metric 1024`, a host route without its
    /// `/32`, a multipath route's paths as `nexthop via … dev … weight …` after the rest.
    /// - Parameter names: The interface names by index; an index without one is `ifN`, as ip prints it.
    func ipLine(names: [Int: String]) -> String {
        // ip names a host route by its address alone.
        let host = prefixLength == family.byteCount * 8
        var words = [isDefault ? "default" : host ? "\(destination)" : "\(destination)/\(prefixLength)"]
        if typeOfService != 0 {
            words.append("tos 0x" + (typeOfService < 16 ? "0" : "") + String(typeOfService, radix: 16))
        }
        let hop = { (hop: NextHop) in
            (hop.gateway.map { ["via \($0)"] } ?? [])
                + (hop.interfaceIndex.map { ["dev " + (names[$0] ?? "if\($0)")] } ?? [])
        }
        if nextHops.count == 1, let only = nextHops.first { words += hop(only) }
        if table != 254 { words.append("table \(table)") }
        if metric != 0 { words.append("metric \(metric)") }
        if nextHops.count > 1 {
            for path in nextHops { words += ["nexthop"] + hop(path) + ["weight \(path.weight)"] }
        }
        return words.joined(separator: " ")
    }
}
