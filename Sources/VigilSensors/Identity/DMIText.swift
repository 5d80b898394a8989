/// How a DMI string from `/sys/class/dmi/id` becomes a value: trimmed, and absent when it says nothing.
///
/// Firmware pads strings with blanks (an ASUS `bios_version` of `0918   `), and the kernel keeps them byte for byte,
/// so blanks at both ends are trimmed (blanks inside, as in `N2XET35W (1.25 )`, are kept); an empty string is
/// absent, as the kernel gives for SMBIOS string number 0. Bytes that are not UTF-8 become U+FFFD, never a failure.
///
/// Placeholders that board vendors leave in the firmware (the AMI BIOS kit's "To Be Filled By O.E.M." and "Default
/// string", ASUS's "System Product Name", Supermicro's "0123456789") are absent too, not names: a list of them, which
/// ``isPlaceholder(_:)`` compares case-insensitively with blanks removed, as systemd's `20-dmi-id.hwdb` matches the
/// blank-free modalias.
package enum DMIText {
    /// The placeholders, lower case without blanks. Sources:
    /// - systemd `hwdb.d/20-dmi-id.hwdb`, the values it marks `ID_*_IS_RUBBISH`: "Default string", "N/A", "O.E.M.",
    ///   "OEM", "System manufacturer", "System Product Name", "System Name", "To be filled by O.E.M.".
    /// - Real tables in `linuxhw/DMI` (the machines under `Tests/VigilSensorsTests/Fixtures/dmi`): ASUS "System
    ///   Version", "Chassis Manufacture", "Chassis Version"; Supermicro "0123456789"; Lenovo "None"; EDK II
    ///   "unknown"; and the "Not Specified", "Not Applicable", "Not Available" that dmidecode and firmware print for
    ///   an unset string.
    /// - Insyde and AMI kits: "Type1ProductConfigId", "Type2 - Board Product Name1" style defaults, "System SKU",
    ///   "1234567890", "123456789", "Chassis Manufacturer", "Base Board Product Name".
    static let placeholders: Set<String> = [
        "tobefilledbyo.e.m.", "tobefilledbyo.e.m", "defaultstring", "o.e.m.", "oem", "n/a", "na", "none", "unknown",
        "notspecified", "notapplicable", "notavailable", "systemmanufacturer", "systemproductname", "systemname",
        "systemversion", "systemsku", "systemskunumber", "systemserialnumber", "chassismanufacture",
        "chassismanufacturer", "chassisversion", "chassisserialnumber", "baseboardproductname",
        "baseboardmanufacturer", "baseboardversion", "type1productconfigid", "type1family", "type1sku0",
        "type2-boardproductname1", "type2-boardvendorname1", "type2-boardversion", "0123456789", "1234567890",
        "123456789", "xxxxxxxxxx", "invalid", "empty",
    ]

    /// The attribute's bytes as a value: trimmed, nil when empty or a placeholder.
    package static func value(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self).trimmingDMIBlanks()
        guard !text.isEmpty, !isPlaceholder(text) else { return nil }
        return text
    }

    /// Whether `text` is a placeholder a vendor left in the firmware rather than a name.
    package static func isPlaceholder(_ text: String) -> Bool {
        placeholders.contains(String(text.lowercased().filter { !$0.isWhitespace }))
    }
}

extension String {
    /// Without blanks, newlines and NULs at either end.
    func trimmingDMIBlanks() -> String {
        let isBlank: (Character) -> Bool = { $0.isWhitespace || $0 == "\0" }
        guard let start = firstIndex(where: { !isBlank($0) }), let end = lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return String(self[start...end])
    }
}
