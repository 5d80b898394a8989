/// What kind of machine this is, in the words of `hostnamectl`'s "Chassis".
///
/// Decided as systemd-hostnamed decides it when `/etc/machine-info` sets none: a virtual machine is ``vm`` whatever
/// its firmware claims; otherwise the SMBIOS chassis type (``init(smbiosChassisType:)``), then the ACPI preferred
/// power-management profile (``init(acpiProfile:)``), then the device tree's `chassis-type`
/// (``init(deviceTreeChassisType:)``). A type none of them maps (a rack-mount chassis, 23, has no class in hostnamed's
/// table) gives no class from that step.
public enum ChassisClass: String, Sendable, Equatable, Encodable, CaseIterable, CustomStringConvertible {
    /// A desktop, tower, all-in-one or mini PC.
    case desktop
    /// A laptop, notebook or portable.
    case laptop
    /// A laptop that folds into a tablet, or a detachable.
    case convertible
    /// A tablet.
    case tablet
    /// A server, blade or blade enclosure.
    case server
    /// A hand-held device, such as a phone.
    case handset
    /// A watch.
    case watch
    /// An embedded PC or IoT gateway.
    case embedded
    /// A virtual machine.
    case vm
    /// A container sharing its host's kernel.
    case container

    public var description: String { rawValue }

    /// The class of an SMBIOS chassis type (`chassis_type` in `/sys/class/dmi/id`), as hostnamed maps it: 3, 4, 6,
    /// 7, 13, 35, 36 desktop; 8, 9, 10, 14 laptop; 11 handset; 17, 28, 29 server; 30 tablet; 31, 32 convertible; 33,
    /// 34 embedded; nil for any other.
    public init?(smbiosChassisType type: Int) {
        switch type {
        case 3, 4, 6, 7, 13, 35, 36: self = .desktop
        case 8, 9, 10, 14: self = .laptop
        case 11: self = .handset
        case 17, 28, 29: self = .server
        case 30: self = .tablet
        case 31, 32: self = .convertible
        case 33, 34: self = .embedded
        default: return nil
        }
    }

    /// The class of an ACPI FADT preferred power-management profile (`/sys/firmware/acpi/pm_profile`), as hostnamed
    /// maps it: 1 desktop, 3 workstation and 6 appliance are desktops; 2 mobile and 8 tablet are laptops; 4, 5 and 7
    /// are servers; 0 (unspecified) and anything else give nil.
    public init?(acpiProfile profile: Int) {
        switch profile {
        case 1, 3, 6: self = .desktop
        case 2, 8: self = .laptop
        case 4, 5, 7: self = .server
        default: return nil
        }
    }

    /// The class named by a device tree's `chassis-type` property (the Devicetree Specification's values, which are
    /// these names), nil for any other string.
    public init?(deviceTreeChassisType name: String) {
        guard let known = Self(rawValue: name), known != .vm, known != .container else { return nil }
        self = known
    }

    /// The SMBIOS 3.x name of a chassis type (System Enclosure, type 3), for example "Notebook" for 10; nil outside
    /// 1...36.
    public static func smbiosName(of type: Int) -> String? {
        guard type >= 1, type <= smbiosNames.count else { return nil }
        return smbiosNames[type - 1]
    }

    private static let smbiosNames = [
        "Other", "Unknown", "Desktop", "Low Profile Desktop", "Pizza Box", "Mini Tower", "Tower", "Portable", "Laptop",
        "Notebook", "Hand Held", "Docking Station", "All in One", "Sub Notebook", "Space-saving", "Lunch Box",
        "Main Server Chassis", "Expansion Chassis", "SubChassis", "Bus Expansion Chassis", "Peripheral Chassis",
        "RAID Chassis", "Rack Mount Chassis", "Sealed-case PC", "Multi-system chassis", "Compact PCI", "Advanced TCA",
        "Blade", "Blade Enclosure", "Tablet", "Convertible", "Detachable", "IoT Gateway", "Embedded PC", "Mini PC",
        "Stick PC",
    ]
}
