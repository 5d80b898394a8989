/// One decoded rtnetlink message: a link, address or route change, or the end or error of a request.
package enum RouteMessage: Hashable, Sendable {
    /// A link as `RTM_NEWLINK` or `RTM_DELLINK` reports it (without addresses, which come separately).
    package struct Link: Hashable, Sendable {
        /// The interface index.
        package var index: Int
        /// `IFLA_IFNAME`, its exact bytes: the kernel takes any but `/`, `:`, NUL and white space, UTF-8 or not.
        package var nameBytes: BytePath
        /// The name as text: itself when it is UTF-8, else with the other bytes escaped as `ls -b` does.
        package var name: String { nameBytes.displayText }
        /// The `ARPHRD_*` device type (`ifi_type`).
        package var hardwareType: UInt16
        /// `ifi_flags`.
        package var flags: InterfaceFlags
        /// `IFLA_OPERSTATE`, `.unknown` when absent or out of range.
        package var operationalStatus: OperationalStatus
        /// `IFLA_MTU`.
        package var mtu: Int?
        /// `IFLA_ADDRESS`, as bytes.
        package var hardwareAddress: [UInt8]?
        /// `IFLA_INFO_KIND` inside `IFLA_LINKINFO`, for example `veth`.
        package var linkKind: String?
        /// `IFLA_STATS64`, else `IFLA_STATS`; `nil` when neither holds the counters.
        package var traffic: InterfaceTraffic?

        /// Creates a link record.
        package init(
            index: Int, name: BytePath, hardwareType: UInt16, flags: InterfaceFlags,
            operationalStatus: OperationalStatus = .unknown, mtu: Int? = nil, hardwareAddress: [UInt8]? = nil,
            linkKind: String? = nil, traffic: InterfaceTraffic? = nil
        ) {
            self.index = index
            self.nameBytes = name
            self.hardwareType = hardwareType
            self.flags = flags
            self.operationalStatus = operationalStatus
            self.mtu = mtu
            self.hardwareAddress = hardwareAddress
            self.linkKind = linkKind
            self.traffic = traffic
        }
    }

    /// `RTM_NEWLINK`: a link appeared or changed.
    case newLink(Link)
    /// `RTM_DELLINK`: a link went away (deleted, or moved to another namespace).
    case deleteLink(Link)
    /// `RTM_NEWADDR`: an address appeared or changed.
    case newAddress(InterfaceAddress)
    /// `RTM_DELADDR`: an address went away.
    case deleteAddress(InterfaceAddress)
    /// `RTM_NEWROUTE` for a unicast route outside the `local` table.
    case newRoute(Route, replace: Bool)
    /// `RTM_DELROUTE` for a unicast route outside the `local` table.
    case deleteRoute(Route)
    /// `NLMSG_DONE`: the end of a dump.
    case done
    /// `NLMSG_ERROR`: the answer to a request; `errno` 0 is an acknowledgement.
    case error(errno: Int32)
}

/// A ``RouteMessage`` with the header it came in, so a reader can match sequence numbers and dump flags.
package struct RouteEnvelope: Hashable, Sendable {
    /// The netlink header.
    package var header: NetlinkMessageHeader
    /// The decoded message.
    package var message: RouteMessage

    /// Creates an envelope.
    package init(header: NetlinkMessageHeader, message: RouteMessage) {
        self.header = header
        self.message = message
    }
}
