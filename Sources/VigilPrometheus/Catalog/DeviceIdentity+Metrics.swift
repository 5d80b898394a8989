import VigilSensors

extension DeviceIdentity: ReadingMetrics {
    /// `vigil_dmi_info` and `vigil_os_info` with node_exporter's `node_dmi_info` and `node_os_info` labels,
    /// `vigil_os_version` with `node_os_version`'s (`VERSION_ID`'s major.minor; no sample without one),
    /// `vigil_uname_info` with `node_uname_info`'s (the watched hostname as `nodename`), and `vigil_device_info`
    /// with what hostnamectl derives; each info always 1.
    ///
    /// As node_exporter does, a label is left out when its value is absent. The serial numbers and the UUID, which
    /// node_exporter adds when it runs as root, are left out: they identify one machine for life, and a metric is no
    /// place for that.
    func addMetrics(to builder: inout MetricFamilyBuilder) {
        if let dmi {
            let labels: [(String, String?)] = [
                ("bios_date", dmi.biosDate), ("bios_release", dmi.biosRelease), ("bios_vendor", dmi.biosVendor),
                ("bios_version", dmi.biosVersion), ("board_asset_tag", dmi.boardAssetTag),
                ("board_name", dmi.boardName), ("board_vendor", dmi.boardVendor), ("board_version", dmi.boardVersion),
                ("chassis_asset_tag", dmi.chassisAssetTag), ("chassis_vendor", dmi.chassisVendor),
                ("chassis_version", dmi.chassisVersion), ("product_family", dmi.productFamily),
                ("product_name", dmi.productName), ("product_sku", dmi.productSKU),
                ("product_version", dmi.productVersion), ("system_vendor", dmi.systemVendor),
            ]
            builder.gauge(
                "vigil_dmi_info",
                "The machine's DMI (SMBIOS) identity, in node_exporter's node_dmi_info labels; always 1.",
                1, Self.present(labels))
        }
        if let system = operatingSystem {
            let idLike = system.idLike.isEmpty ? nil : system.idLike.joined(separator: " ")
            let labels: [(String, String?)] = [
                ("build_id", system.buildID), ("id", system.id), ("id_like", idLike),
                ("image_id", system.imageID), ("image_version", system.imageVersion), ("name", system.name),
                ("pretty_name", system.prettyName), ("variant", system.variant), ("variant_id", system.variantID),
                ("version", system.version), ("version_codename", system.versionCodename),
                ("version_id", system.versionID),
            ]
            builder.gauge(
                "vigil_os_info",
                "The operating system from os-release, in node_exporter's node_os_info labels; always 1.",
                1, Self.present(labels))
            builder.gauge(
                "vigil_os_version",
                "VERSION_ID's leading major.minor as a number, in node_exporter's node_os_version labels; "
                    + "absent when VERSION_ID has none.",
                system.majorMinorVersion, Self.present([("id", system.id), ("id_like", idLike), ("name", system.name)]))
        }
        builder.gauge(
            "vigil_uname_info", "The kernel from uname(2) and the hostname, in node_uname_info's labels; always 1.", 1,
            [
                "sysname": kernel.name, "release": kernel.release, "version": kernel.version,
                "machine": kernel.machine, "nodename": hostname,
            ])
        let device: [(String, String?)] = [
            ("hostname", hostname), ("static_hostname", staticHostname), ("pretty_hostname", prettyHostname),
            ("chassis", chassis?.rawValue), ("hardware_vendor", hardwareVendor), ("hardware_model", hardwareModel),
            ("virtualization", virtualization), ("container", container), ("deployment", deployment),
            ("location", location),
        ]
        builder.gauge(
            "vigil_device_info",
            "The hostnames, chassis, hardware vendor and model, hypervisor, container, deployment and location; always 1.",
            1,
            Self.present(device))
    }

    /// The labels whose value is present and not empty.
    private static func present(_ labels: [(String, String?)]) -> [String: String] {
        var present: [String: String] = [:]
        for case let (name, value?) in labels where !value.isEmpty { present[name] = value }
        return present
    }
}
