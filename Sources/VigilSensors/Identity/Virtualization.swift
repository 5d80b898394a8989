/// Signs that the machine is virtual, from its DMI strings and its CPU's flags: the parts of `systemd-detect-virt`
/// that the kernel's files show.
///
/// Like systemd's `detect_vm_dmi()`, ``hypervisor(_:)`` looks at `product_name` first (so KVM is told from the QEMU
/// it runs on), then `sys_vendor`, `board_vendor`, `bios_vendor` and `product_version`, and matches each against a
/// table of prefixes. It names the hypervisor with `systemd-detect-virt`'s ids (`kvm`, `qemu`, `vmware`, …).
///
/// A VM whose firmware names no hypervisor (Firecracker has no DMI at all) still shows one in the CPU: the
/// `hypervisor` flag of `/proc/cpuinfo`, the CPUID bit every x86 hypervisor sets and systemd's `detect_vm_cpuid()`
/// starts from. The kernel does not show the hypervisor's signature (CPUID leaf 0x40000000), so such a VM is
/// `vm-other`, systemd's id for an unnamed one. Other architectures have no such flag; there nil means "no sign",
/// not "bare metal".
enum Virtualization {
    /// `systemd-detect-virt`'s id for a VM whose hypervisor has no name.
    static let unnamed = "vm-other"

    /// The most of `/proc/cpuinfo` read: its first processor's block, flags included, fits many times over, and a
    /// machine of thousands of cores does not make the read grow.
    static let cpuinfoHead = 64 * 1024

    /// Whether the first `flags` line of `/proc/cpuinfo` text lists `hypervisor` (x86 only).
    static func cpuFlagsShowAHypervisor(_ cpuinfo: String) -> Bool {
        for line in cpuinfo.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":"), line[..<colon].trimmingWhitespaceSubstring() == "flags" else {
                continue
            }
            return line[line.index(after: colon)...].split(whereSeparator: { $0 == " " || $0 == "\t" })
                .contains("hypervisor")
        }
        return false
    }

    /// Prefixes and the `systemd-detect-virt` id each means. systemd also maps "Oracle Corporation" (for VirtualBox's
    /// board vendor), which Oracle's own physical servers carry too, so it is left out; VirtualBox still shows
    /// "innotek GmbH" or "VirtualBox".
    private static let table: [(prefix: String, id: String)] = [
        ("KVM", "kvm"), ("OpenStack", "kvm"), ("KubeVirt", "kvm"), ("Amazon EC2", "amazon"), ("QEMU", "qemu"),
        ("VMware", "vmware"), ("VMW", "vmware"), ("innotek GmbH", "oracle"), ("VirtualBox", "oracle"), ("Xen", "xen"),
        ("Bochs", "bochs"), ("Parallels", "parallels"), ("BHYVE", "bhyve"), ("Hyper-V", "microsoft"),
        ("Apple Virtualization", "apple"), ("Google Compute Engine", "google"),
    ]

    /// The hypervisor `dmi` names, or nil.
    static func hypervisor(_ dmi: DMIIdentity) -> String? {
        let probes = [dmi.productName, dmi.systemVendor, dmi.boardVendor, dmi.biosVendor, dmi.productVersion]
        for case let value? in probes {
            if let match = table.first(where: { value.hasPrefix($0.prefix) }) { return match.id }
        }
        return nil
    }
}
