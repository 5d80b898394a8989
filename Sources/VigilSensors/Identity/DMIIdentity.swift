/// The machine's identity from its SMBIOS tables, as the kernel shows them under `<sys>/class/dmi/id`.
///
/// Each string is trimmed, and is `nil` when the file is missing or empty, holds a vendor's placeholder ("To Be
/// Filled By O.E.M.", "Default string", …; see `DMIText`) or cannot be read; a file that cannot be read says why
/// in ``DeviceIdentity/problems``. The serial numbers and the UUID are readable by root only: for any other user they
/// are `nil` and named in ``hiddenFields`` (the kernel's `EACCES`), which is not a problem.
///
/// The property names follow the files (`sys_vendor` is ``systemVendor``); the JSON keys are these property names.
public struct DMIIdentity: Sendable, Equatable, Encodable {
    /// `sys_vendor`: the system's manufacturer.
    public var systemVendor: String?
    /// `product_name`: the system's product name (on Lenovo machines a machine type such as `20S0000NBM`).
    public var productName: String?
    /// `product_version`: the system's version (on Lenovo machines the model, such as "ThinkPad T14 Gen 1").
    public var productVersion: String?
    /// `product_family`.
    public var productFamily: String?
    /// `product_sku`.
    public var productSKU: String?
    /// `board_vendor`: the base board's manufacturer.
    public var boardVendor: String?
    /// `board_name`: the base board's product name.
    public var boardName: String?
    /// `board_version`.
    public var boardVersion: String?
    /// `board_asset_tag`.
    public var boardAssetTag: String?
    /// `chassis_vendor`.
    public var chassisVendor: String?
    /// `chassis_version`.
    public var chassisVersion: String?
    /// `chassis_asset_tag`.
    public var chassisAssetTag: String?
    /// `chassis_type`: the SMBIOS chassis type number, 1...36 in SMBIOS 3.x (10 is "Notebook").
    public var chassisType: Int?
    /// `bios_vendor`: the firmware's vendor.
    public var biosVendor: String?
    /// `bios_version`: the firmware's version.
    public var biosVersion: String?
    /// `bios_date`: the firmware's release date as the firmware writes it (`MM/DD/YYYY`, sometimes unpadded).
    public var biosDate: String?
    /// `bios_release`: the firmware's major.minor release, for example `1.25`.
    public var biosRelease: String?
    /// `ec_firmware_release`: the embedded controller's firmware release.
    public var ecFirmwareRelease: String?
    /// `product_serial` (root only).
    public var productSerial: String?
    /// `product_uuid` (root only).
    public var productUUID: String?
    /// `board_serial` (root only).
    public var boardSerial: String?
    /// `chassis_serial` (root only).
    public var chassisSerial: String?
    /// The root-only files this process may not read, by file name (`product_serial`, …).
    public var hiddenFields: [String]

    /// A table with no field set.
    public init() { hiddenFields = [] }

    /// The SMBIOS name of ``chassisType``, for example "Notebook".
    public var chassisTypeName: String? { chassisType.flatMap(ChassisClass.smbiosName(of:)) }

    /// The hardware vendor as systemd-hostnamed shows it: ``systemVendor``, else ``boardVendor`` when the system's is
    /// a placeholder; "LENOVO" is written "Lenovo", as systemd's hwdb does.
    public var vendor: String? {
        let vendor = systemVendor ?? boardVendor
        return vendor == "LENOVO" ? "Lenovo" : vendor
    }

    /// The hardware model as systemd-hostnamed shows it: ``productName``, else ``boardName`` when the product's is a
    /// placeholder; on Lenovo machines ``productVersion`` (their product name is a machine type).
    public var model: String? {
        if systemVendor == "LENOVO", let productVersion { return productVersion }
        return productName ?? boardName
    }
}
