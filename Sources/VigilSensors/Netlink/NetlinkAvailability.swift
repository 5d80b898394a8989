import CLinuxSupport
import Glibc

/// The availability check the netlink sources share.
enum NetlinkAvailability {
    /// Whether a netlink socket of `netlinkProtocol` can be created here and `namespace`, if any, can be opened.
    static func check(namespace: String?, netlinkProtocol: Int32) -> Availability {
        if let namespace, access(namespace, R_OK) != 0 {
            let errno = Errno.current
            let reason: UnavailabilityReason =
                errno == .permissionDenied || errno == .notPermitted ? .permissionDenied : .missingDevice
            return .unavailable(reason: reason, detail: "\(namespace): \(errno)")
        }
        let fd = socket(AF_NETLINK, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), netlinkProtocol)
        guard fd >= 0 else {
            let errno = Errno.current
            let reason: UnavailabilityReason =
                errno == .permissionDenied || errno == .notPermitted ? .permissionDenied : .kernelLacksInterface
            return .unavailable(reason: reason, detail: "netlink protocol \(netlinkProtocol): \(errno)")
        }
        close(fd)
        return .available
    }
}
