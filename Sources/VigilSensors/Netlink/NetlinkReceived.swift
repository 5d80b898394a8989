/// What one non-blocking receive from a netlink socket got.
package enum NetlinkReceived: Hashable, Sendable {
    /// A datagram of `count` bytes from `sender`; `truncated` when it did not fit the buffer (`MSG_TRUNC`).
    case datagram(count: Int, sender: NetlinkSender, truncated: Bool)
    /// Nothing is pending.
    case wouldBlock
    /// The kernel dropped messages because the receive buffer was full (`ENOBUFS`).
    case overflow
}
