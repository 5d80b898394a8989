extension DMIIdentity {
    /// The files read, by the property each fills.
    private static var strings: [(String, WritableKeyPath<DMIIdentity, String?>)] {
        [
            ("sys_vendor", \.systemVendor), ("product_name", \.productName), ("product_version", \.productVersion),
            ("product_family", \.productFamily), ("product_sku", \.productSKU), ("board_vendor", \.boardVendor),
            ("board_name", \.boardName), ("board_version", \.boardVersion), ("board_asset_tag", \.boardAssetTag),
            ("chassis_vendor", \.chassisVendor), ("chassis_version", \.chassisVersion),
            ("chassis_asset_tag", \.chassisAssetTag), ("bios_vendor", \.biosVendor), ("bios_version", \.biosVersion),
            ("bios_date", \.biosDate), ("bios_release", \.biosRelease), ("ec_firmware_release", \.ecFirmwareRelease),
        ]
    }

    /// The files only root may read.
    private static var rootOnly: [(String, WritableKeyPath<DMIIdentity, String?>)] {
        [
            ("product_serial", \.productSerial), ("product_uuid", \.productUUID), ("board_serial", \.boardSerial),
            ("chassis_serial", \.chassisSerial),
        ]
    }

    /// Reads `<directory>/*`, usually `/sys/class/dmi/id`; nil when the directory does not exist (a board without
    /// SMBIOS, such as most ARM boards).
    ///
    /// One file that cannot be read hides only itself: it is `nil`, and `problems` gets why. A root-only file
    /// refused with `EACCES` is named in ``hiddenFields`` instead.
    package static func read(directory: String, problems: inout [SensorError]) -> DMIIdentity? {
        guard SysfsFile.isDirectory(directory) else { return nil }
        var identity = DMIIdentity()
        for (file, keyPath) in strings + rootOnly {
            let path = directory + "/" + file
            do {
                identity[keyPath: keyPath] = DMIText.value(try SysfsFile.readBytes(path))
            } catch .notFound {
                continue
            } catch .permissionDenied where rootOnly.contains(where: { $0.0 == file }) {
                identity.hiddenFields.append(file)
            } catch {
                problems.append(error)
            }
        }
        do throws(SensorError) {
            let text = try SysfsFile.readText(directory + "/chassis_type").trimmingDMIBlanks()
            if !text.isEmpty {
                guard let type = Int(text), (0...255).contains(type) else {
                    throw .malformedValue(
                        path: directory + "/chassis_type", text: text, expected: "an SMBIOS chassis type, 0 to 255")
                }
                identity.chassisType = type
            }
        } catch .notFound {
            // No chassis type: a table without a System Enclosure structure.
        } catch {
            problems.append(error)
        }
        return identity
    }
}
