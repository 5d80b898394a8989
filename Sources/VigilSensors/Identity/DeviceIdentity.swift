/// This machine's identity and operating system: what `hostnamectl` shows, read from the kernel and two files.
///
/// - Hostname: `<proc>/sys/kernel/hostname`, the kernel's (transient) hostname of this UTS namespace.
/// - Hardware: the SMBIOS tables under `<sys>/class/dmi/id` (``dmi``), or the device tree under `<proc>/device-tree`
///   on boards without them (``deviceTree``), with the vendor and model chosen as systemd-hostnamed chooses them.
/// - Chassis: ``ChassisClass`` from `CHASSIS=` in `<etc>/machine-info`, a container (``container``), a hypervisor
///   (``virtualization``), SMBIOS, ACPI's `<sys>/firmware/acpi/pm_profile` or the device tree, in that order.
/// - The static hostname (`<etc>/hostname`) and machine-info(5)'s pretty hostname, deployment, location and icon.
/// - Operating system: `<etc>/os-release`, else `<etc>/../usr/lib/os-release` (``operatingSystem``).
/// - Kernel: `uname(2)`; boot id: `<proc>/sys/kernel/random/boot_id`; machine id: `<etc>/machine-id`.
///
/// Everything but the hostname is optional: a container has no DMI, a minimal image no os-release, a fresh one no
/// machine id. What could not be read for another reason than its absence is in ``problems``, and hides only itself.
public struct DeviceIdentity: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// Where the chassis class came from.
    public enum ChassisEvidence: String, Sendable, Equatable, Encodable {
        /// `CHASSIS=` in `/etc/machine-info`, set by the administrator.
        case machineInfo
        /// The process runs in a container (``DeviceIdentity/container``) or the machine is virtual
        /// (``DeviceIdentity/virtualization``).
        case virtualization
        /// The SMBIOS chassis type.
        case dmi
        /// The ACPI preferred power-management profile.
        case acpi
        /// The device tree's `chassis-type`.
        case deviceTree
    }

    /// The kernel's hostname in this process's UTS namespace.
    public var hostname: String
    /// The static hostname configured in `/etc/hostname`, which the kernel's is set from at boot; nil without one.
    public var staticHostname: String?
    /// `PRETTY_HOSTNAME` from `/etc/machine-info`, for example "Lennart's Laptop".
    public var prettyHostname: String?
    /// `DEPLOYMENT` from `/etc/machine-info`, for example `production`.
    public var deployment: String?
    /// `LOCATION` from `/etc/machine-info`, for example "Berlin, rack 3".
    public var location: String?
    /// `ICON_NAME` from `/etc/machine-info`, else systemd-hostnamed's fallback: `computer-` and the chassis
    /// (`computer-laptop`), or `computer` without one.
    public var iconName: String?
    /// What kind of machine this is; nil when nothing says.
    public var chassis: ChassisClass?
    /// Where ``chassis`` came from.
    public var chassisEvidence: ChassisEvidence?
    /// The hardware vendor, as `hostnamectl` shows it ("Lenovo", "Dell Inc."); nil in a container, whose DMI tables
    /// are the host's (they stay in ``dmi``).
    public var hardwareVendor: String?
    /// The hardware model, as `hostnamectl` shows it ("ThinkPad T14 Gen 1"); from DMI not in a container, as
    /// ``hardwareVendor``.
    public var hardwareModel: String?
    /// The hypervisor named in the DMI strings, with `systemd-detect-virt`'s ids (`qemu`, `kvm`, `vmware`, …), else
    /// `vm-other` when only the CPU's `hypervisor` flag in `<proc>/cpuinfo` shows one; nil when neither shows a sign,
    /// which does not prove bare metal (only x86 has the flag).
    public var virtualization: String?
    /// The container this process runs in, with `systemd-detect-virt --container`'s ids (`docker`, `podman`, `lxc`,
    /// `wsl`, `container-other`, …), from the markers a container manager leaves; nil when none says so.
    public var container: String?
    /// The SMBIOS identity; nil without `<sys>/class/dmi/id`.
    public var dmi: DMIIdentity?
    /// The device tree's identity; nil without `<proc>/device-tree`.
    public var deviceTree: DeviceTreeIdentity?
    /// ACPI's preferred power-management profile (0 unspecified, 1 desktop, 2 mobile, … 8 tablet); nil without it.
    public var acpiProfile: Int?
    /// The operating system; nil when neither os-release file exists.
    public var operatingSystem: OperatingSystem?
    /// The running kernel.
    public var kernel: KernelIdentity
    /// This boot's random id, a UUID.
    public var bootID: String?
    /// The machine id, 32 lower-case hexadecimal digits; nil when missing, empty or not yet initialized.
    public var machineID: String?
    /// What could not be read for another reason than its absence (a FIFO or directory where a file should be, a
    /// file too large, a malformed value), each hiding only itself.
    public var problems: [String]

    public var description: String {
        var parts = [hostname + (prettyHostname.map { " (\($0))" } ?? "")]
        if let operatingSystem { parts.append(operatingSystem.displayName) }
        parts.append("\(kernel.name) \(kernel.release) \(kernel.machine)")
        let hardware = [hardwareVendor, hardwareModel].compactMap { $0 }.joined(separator: " ")
        if !hardware.isEmpty { parts.append(hardware) }
        if let chassis {
            parts.append("chassis \(chassis)" + ((container ?? virtualization).map { " (\($0))" } ?? ""))
        }
        if let dmi, let version = dmi.biosVersion {
            parts.append("firmware \(version)" + (dmi.biosDate.map { " of \($0)" } ?? ""))
        } else if let model = deviceTree?.model, hardwareModel == nil {
            parts.append(model)
        }
        if !problems.isEmpty { parts.append("\(problems.count) unreadable") }
        return parts.joined(separator: ", ")
    }
}
