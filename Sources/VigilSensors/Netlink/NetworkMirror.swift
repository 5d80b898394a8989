import CLinuxSupport
import Glibc

/// A copy of the kernel's links (with their traffic counters), addresses and routes (unicast, outside the `local`
/// table), kept current by applying rtnetlink messages; at most ``NetworkPath/routeLimit`` routes besides the default
/// routes, the rest only counted.
///
/// It is a pure value: ``apply(_:)`` changes it, ``path`` reads it. Where the kernel drops state without telling
/// (IPv4 routes through a link that goes down, or through a link that loses its last IPv4 address), the mirror drops
/// it too, as the kernel does.
package struct NetworkMirror: Sendable {
    private var links: [Int: RouteMessage.Link] = [:]
    private var kinds: [Int: InterfaceKind] = [:]
    private var addresses: [Int: [InterfaceAddress]] = [:]
    private var routes: [Route] = []
    /// Routes beyond the limit, counted but not kept: a full routing table would make every message and snapshot
    /// cost time and memory in proportion to it. Approximate once such routes go away with their link.
    private var omittedRoutes = 0
    private var keptOrdinaryRoutes: Int { routes.count { !$0.isDefault } }
    /// The most routes kept besides the default routes: ``NetworkPath/routeLimit``, smaller in tests.
    private let routeLimit: Int
    private let sysfsRoot: String?

    /// Creates an empty mirror.
    ///
    /// - Parameters:
    ///   - sysfsRoot: Where to look up whether an interface is Wi-Fi (`ROOT/class/net/NAME/wireless` or
    ///     `phy80211`) or a modem's (`DEVTYPE=wwan` in its `uevent`), normally `/sys`. Pass `nil` when the links live
    ///     in another network namespace than the one sysfs shows, so a name clash cannot mislead; the names then
    ///     tell, as systemd and the drivers give them (`wl…` Wi-Fi, `ww…` and `rmnet…` modems).
    ///   - routeLimit: The most routes kept besides the default routes.
    package init(sysfsRoot: String? = "/sys", routeLimit: Int = NetworkPath.routeLimit) {
        self.sysfsRoot = sysfsRoot
        self.routeLimit = routeLimit
    }

    /// Applies one message; ``RouteMessage/done`` and ``RouteMessage/error(errno:)`` change nothing.
    package mutating func apply(_ message: RouteMessage) {
        switch message {
        case .newLink(let link):
            if links[link.index]?.nameBytes != link.nameBytes || links[link.index]?.linkKind != link.linkKind
                || links[link.index]?.hardwareType != link.hardwareType
            {
                kinds[link.index] = classify(link)
            }
            links[link.index] = link
            if !link.flags.contains(.up) { removeRoutes(through: link.index, family: nil) }
        case .deleteLink(let link):
            links[link.index] = nil
            kinds[link.index] = nil
            addresses[link.index] = nil
            removeRoutes(through: link.index, family: nil)
        case .newAddress(let address):
            var list = addresses[address.interfaceIndex] ?? []
            list.removeAll { $0.isSameAddress(as: address) }
            list.append(address)
            addresses[address.interfaceIndex] = list.sorted { $0.address < $1.address }
        case .deleteAddress(let address):
            var list = addresses[address.interfaceIndex] ?? []
            list.removeAll { $0.isSameAddress(as: address) }
            addresses[address.interfaceIndex] = list.isEmpty ? nil : list
            if address.address.family == .ipv4, !list.contains(where: { $0.address.family == .ipv4 }) {
                removeRoutes(through: address.interfaceIndex, family: .ipv4)
            }
        case .newRoute(let route, let replace):
            addRoute(route, replace: replace)
        case .deleteRoute(let route):
            deleteRoute(route)
        case .done, .error:
            break
        }
    }

    /// Applies every message in order.
    package mutating func apply(_ messages: some Sequence<RouteMessage>) {
        for message in messages { apply(message) }
    }

    /// Takes the counters of `link`, a reply to a refresh of the counters, for the link the mirror knows by that index
    /// and name; the rest of the reply is left alone, so links, addresses and routes still change only with the
    /// kernel's notifications and full dumps.
    package mutating func updateTraffic(from link: RouteMessage.Link) {
        guard links[link.index]?.nameBytes == link.nameBytes else { return }
        links[link.index]?.traffic = link.traffic
    }

    /// The flags of the link with `index`, if the mirror knows it.
    func linkFlags(index: Int) -> InterfaceFlags? { links[index]?.flags }

    /// The mirrored state as a ``NetworkPath``.
    package var path: NetworkPath {
        let interfaces = links.values.sorted { $0.index < $1.index }.map { link in
            NetworkInterface(
                index: link.index, name: link.name, nameBytes: link.nameBytes, kind: kinds[link.index] ?? .other,
                linkKind: link.linkKind,
                flags: link.flags, operationalStatus: link.operationalStatus, mtu: link.mtu,
                hardwareAddress: link.hardwareAddress.flatMap(Self.formatHardwareAddress),
                addresses: addresses[link.index] ?? [], traffic: link.traffic)
        }
        let sortedRoutes = routes.sorted {
            ($0.family, $0.metric, $0.table, $0.typeOfService, $0.prefixLength, $0.destination)
                < ($1.family, $1.metric, $1.table, $1.typeOfService, $1.prefixLength, $1.destination)
        }
        return NetworkPath(interfaces: interfaces, routes: sortedRoutes, omittedRoutes: omittedRoutes)
    }

    /// Adds a route as the kernel does.
    ///
    /// IPv4 (`fib_table_insert`): `NLM_F_REPLACE` replaces the first route with the same key; otherwise the route is
    /// one more alias. IPv6 (`fib6_add_rt2node`): a route whose paths all have gateways joins a route of the same key
    /// as more paths of one multipath route (the kernel announces each `ip -6 route append` as its own message), and
    /// `NLM_F_REPLACE` replaces every path of that key.
    private mutating func addRoute(_ route: Route, replace: Bool) {
        if !route.isDefault, routes.count >= routeLimit, keptOrdinaryRoutes >= routeLimit,
            !routes.contains(where: { $0.hasSameKey(as: route) })
        {
            omittedRoutes += 1
            return
        }
        switch route.family {
        case .ipv4:
            if replace, let index = routes.firstIndex(where: { $0.hasSameKey(as: route) }) {
                routes[index] = route
                return
            }
            routes.removeAll { $0 == route }
            routes.append(route)
        case .ipv6:
            if replace { routes.removeAll { $0.hasSameKey(as: route) } }
            if route.isMultipathCapable,
                let index = routes.firstIndex(where: { $0.hasSameKey(as: route) && $0.isMultipathCapable })
            {
                for hop in route.nextHops {
                    routes[index].nextHops.removeAll { $0.isSamePath(as: hop) }
                    routes[index].nextHops.append(hop)
                }
                return
            }
            routes.removeAll { $0 == route }
            routes.append(route)
        }
    }

    /// Removes a route, or for IPv6 the paths it names, as the kernel does: deleting one path of an IPv6 multipath
    /// route leaves the others.
    private mutating func deleteRoute(_ route: Route) {
        if route.family == .ipv6,
            let index = routes.firstIndex(where: { existing in
                existing.hasSameKey(as: route)
                    && route.nextHops.allSatisfy { hop in existing.nextHops.contains { $0.isSamePath(as: hop) } }
            })
        {
            routes[index].nextHops.removeAll { hop in route.nextHops.contains { $0.isSamePath(as: hop) } }
            if routes[index].nextHops.isEmpty { routes.remove(at: index) }
            return
        }
        if let exact = routes.firstIndex(of: route) {
            routes.remove(at: exact)
        } else if let similar = routes.firstIndex(where: {
            $0.hasSameKey(as: route) && $0.interfaceIndexes == route.interfaceIndexes
        }) {
            routes.remove(at: similar)
        } else if !route.isDefault, omittedRoutes > 0 {
            omittedRoutes -= 1
        }
    }

    private mutating func removeRoutes(through index: Int, family: IPAddress.Family?) {
        routes = routes.compactMap { route in
            guard family == nil || route.family == family else { return route }
            var trimmed = route
            trimmed.nextHops.removeAll { $0.interfaceIndex == index }
            return trimmed.nextHops.isEmpty ? nil : trimmed
        }
    }

    private func classify(_ link: RouteMessage.Link) -> InterfaceKind {
        // ARPHRD_* values from linux/if_arp.h.
        switch Int32(link.hardwareType) {
        case ARPHRD_LOOPBACK: return .loopback
        case _ where isModem(link): return .cellular
        case _ where link.linkKind != nil: return .virtual
        case ARPHRD_ETHER: return isWireless(link.nameBytes) ? .wireless : .ethernet
        case ARPHRD_IEEE80211, ARPHRD_IEEE80211_PRISM, ARPHRD_IEEE80211_RADIOTAP: return .wireless
        case ARPHRD_NONE, ARPHRD_VOID: return .virtual
        default: return .other
        }
    }

    /// The link kinds of modems' data channels: the kernel's WWAN framework and Qualcomm's multiplexer.
    private static let modemLinkKinds: Set<String> = ["wwan", "rmnet"]

    /// Whether `link` is a modem's data channel: by its link kind, else (a device's) as sysfs types it.
    private func isModem(_ link: RouteMessage.Link) -> Bool {
        if let kind = link.linkKind { return Self.modemLinkKinds.contains(kind) }
        return isCellular(link.nameBytes)
    }

    private func isWireless(_ name: BytePath) -> Bool {
        guard sysfsRoot != nil else { return Self.named(name, ["wl"]) }
        guard let directory = sysfsDirectory(name) else { return false }
        return ["wireless", "phy80211"].contains { entry in
            directory.appending(BytePath(entry)).withCString { access($0, F_OK) == 0 }
        }
    }

    /// Whether sysfs types the interface as a modem's (`DEVTYPE=wwan` in its `uevent`); USB modem drivers give
    /// their interfaces Ethernet's or no hardware type, so nothing else tells them apart.
    private func isCellular(_ name: BytePath) -> Bool {
        guard sysfsRoot != nil else { return Self.named(name, ["ww", "rmnet"]) }
        guard let directory = sysfsDirectory(name),
            let text = try? SysfsFile.readText(directory.appending(BytePath("uevent")))
        else { return false }
        return UeventFile.properties(text)["DEVTYPE"] == "wwan"
    }

    /// Whether `name` starts with one of `prefixes`: without sysfs, the names systemd and the drivers give
    /// (`wlp2s0`, `wlan0`; `wwp0s20f0u6i4`, `wwan0`, `rmnet_data0`) are all that tells Wi-Fi and modems apart.
    private static func named(_ name: BytePath, _ prefixes: [String]) -> Bool {
        prefixes.contains { name.bytes.starts(with: $0.utf8) }
    }

    /// `ROOT/class/net/NAME`, or nil without a sysfs root or for a name that would leave that folder.
    private func sysfsDirectory(_ name: BytePath) -> BytePath? {
        guard let sysfsRoot, !name.bytes.contains(UInt8(ascii: "/")), name != ".", name != ".." else { return nil }
        return BytePath(sysfsRoot + "/class/net").appending(name)
    }

    private static func formatHardwareAddress(_ bytes: [UInt8]) -> String? {
        guard !bytes.isEmpty else { return nil }
        return bytes.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined(separator: ":")
    }
}
