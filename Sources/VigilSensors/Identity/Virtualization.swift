/// A hint that the machine is virtual, from its DMI strings: the part of `systemd-detect-virt` that costs nothing
/// but reading files already read.
///
/// Like systemd's `detect_vm_dmi()`, it looks at `product_name` first (so KVM is told from the QEMU it runs on), then
/// `sys_vendor`, `board_vendor`, `bios_vendor` and `product_version`, and matches each against a table of prefixes.
/// It names the hypervisor with `systemd-detect-virt`'s ids (`kvm`, `qemu`, `vmware`, …). It does not look at CPUID,
/// device tree or container markers, so a VM whose firmware hides (Firecracker has no DMI) or a container is not
/// detected: nil means "no sign in DMI", not "bare metal".
enum Virtualization {
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
