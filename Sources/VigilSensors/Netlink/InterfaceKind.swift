/// What sort of device an interface is.
public enum InterfaceKind: String, Hashable, Sendable, Encodable, CustomStringConvertible {
    /// The loopback interface (`ARPHRD_LOOPBACK`).
    case loopback
    /// A physical Ethernet device.
    case ethernet
    /// A Wi-Fi device (sysfs has `wireless` or `phy80211` under it; where sysfs shows another network namespace, a
    /// name starting `wl`).
    case wireless
    /// A mobile-broadband modem's data interface: the kernel's `wwan` or Qualcomm's `rmnet` link kind, or a device
    /// with no link kind whose sysfs `uevent` says `DEVTYPE=wwan` (`qmi_wwan`, `cdc_mbim`, … in Ethernet or raw-IP
    /// mode); where sysfs shows another network namespace, such a device named `ww…` or `rmnet…`.
    case cellular
    /// A virtual device: the kernel names a link kind (veth, bridge, tun, wireguard, …).
    case virtual
    /// Anything else (PPP, InfiniBand, CAN, …).
    case other

    public var description: String { rawValue }
}
