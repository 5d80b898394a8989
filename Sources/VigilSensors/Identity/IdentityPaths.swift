/// Where a ``DeviceIdentityMonitor`` reads, under its three roots.
package struct IdentityPaths: Sendable, Equatable {
    /// The sysfs root, `/sys`.
    package let sys: String
    /// The procfs root, `/proc`.
    package let proc: String
    /// The configuration root, `/etc`.
    package let etc: String

    package init(sys: String, proc: String, etc: String) {
        self.sys = sys
        self.proc = proc
        self.etc = etc
    }

    /// The kernel's hostname: `<proc>/sys/kernel/hostname`.
    package var hostname: String { proc + "/sys/kernel/hostname" }
    /// `<proc>/sys/kernel/random/boot_id`.
    var bootID: String { proc + "/sys/kernel/random/boot_id" }
    /// `<proc>/cpuinfo`, for the CPU's `hypervisor` flag.
    var cpuinfo: String { proc + "/cpuinfo" }
    /// `<proc>/device-tree`.
    var deviceTree: String { proc + "/device-tree" }
    /// `<sys>/class/dmi/id`.
    var dmi: String { sys + "/class/dmi/id" }
    /// `<sys>/firmware/acpi/pm_profile`.
    var acpiProfile: String { sys + "/firmware/acpi/pm_profile" }
    /// `<etc>/machine-id`.
    var machineID: String { etc + "/machine-id" }
    /// `<etc>/hostname`, the static hostname.
    var staticHostname: String { etc + "/hostname" }
    /// `<etc>/machine-info`, machine-info(5).
    var machineInfo: String { etc + "/machine-info" }

    /// The root of the file system the etc root belongs to, for the container markers under `/run` and `/`: empty
    /// (the real root) for `/etc`, the folder above for another root named `etc` (`/mnt/image/etc` gives
    /// `/mnt/image`), nil for any other etc root (a fake tree's), whose parent is nobody's root file system.
    var fileSystemRoot: String? {
        var etc = etc
        while etc.count > 1, etc.hasSuffix("/") { etc.removeLast() }
        guard etc.hasSuffix("/etc") else { return nil }
        return String(etc.dropLast("/etc".count))
    }

    /// `<etc>/os-release`, then the vendor's copy: `/usr/lib/os-release` for `/etc`, and `usr/lib/os-release` beside
    /// the etc root for another root (`/mnt/image/etc` gives `/mnt/image/usr/lib/os-release`), the layout of a root
    /// file system.
    var osRelease: [String] {
        var etc = etc
        while etc.count > 1, etc.hasSuffix("/") { etc.removeLast() }
        let usrLib: String
        if etc == "/etc" {
            usrLib = "/usr/lib"
        } else if let slash = etc.lastIndex(of: "/") {
            usrLib = String(etc[..<slash]) + "/usr/lib"
        } else {
            usrLib = "usr/lib"
        }
        return [etc + "/os-release", usrLib + "/os-release"]
    }
}
