/// Who sent a netlink datagram, as `recvmsg(2)` reports it: the sender's port and, when `SO_PASSCRED` is on, its
/// credentials.
///
/// Only the kernel sends from port 0; any process can send to a netlink multicast group it may join (for uevents,
/// udev does), so sources check the sender before they trust a message.
package struct NetlinkSender: Hashable, Sendable {
    /// The sender's port (`sockaddr_nl.nl_pid`); 0 for the kernel.
    package var port: UInt32
    /// The sender's user id from `SCM_CREDENTIALS`, when the datagram carried credentials.
    package var userID: UInt32?

    /// Creates a sender record.
    package init(port: UInt32, userID: UInt32? = nil) {
        self.port = port
        self.userID = userID
    }

    /// Whether the kernel sent it (port 0). Enough for rtnetlink, where only the kernel multicasts.
    package var isKernel: Bool { port == 0 }

    /// Whether the kernel sent it and credentials confirm it (port 0 and uid 0), as uevents require.
    package var isKernelWithCredentials: Bool { port == 0 && userID == 0 }
}
