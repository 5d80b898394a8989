extension DeviceIdentity {
    /// Reads the identity under `paths`.
    ///
    /// - Parameter hostname: The hostname's text, when the caller read it already (from the watched open file); read
    ///   from `paths` when nil.
    /// - Throws: The ``SensorError`` of the hostname, the one file every Linux has: without it (no procfs) there is
    ///   no identity to report. Anything else that fails hides only itself (see ``problems``).
    package static func read(_ paths: IdentityPaths, hostname given: String? = nil) throws(SensorError)
        -> DeviceIdentity
    {
        let hostname: String
        if let given { hostname = given } else { hostname = try SysfsFile.readText(paths.hostname) }
        var problems: [SensorError] = []
        let dmi = DMIIdentity.read(directory: paths.dmi, problems: &problems)
        let deviceTree = DeviceTreeIdentity.read(directory: paths.deviceTree, problems: &problems)
        let acpiProfile = optional(&problems) { () throws(SensorError) in try SysfsFile.readInteger(paths.acpiProfile) }
        let operatingSystem = readOperatingSystem(paths.osRelease, &problems)
        let bootID = optional(&problems) { () throws(SensorError) in
            try identifier(paths.bootID, expected: "a UUID", valid: isUUID)
        }
        let machineID = optional(&problems) { () throws(SensorError) in
            try identifier(paths.machineID, expected: "32 lower-case hexadecimal digits", valid: isMachineID)
        }
        let staticHostname = optional(&problems) { () throws(SensorError) in
            try firstLine(SysfsFile.readText(paths.staticHostname))
        }
        let machineInfo = optional(&problems) { () throws(SensorError) in
            EnvironmentFile(parsing: try SysfsFile.readText(paths.machineInfo)).values
        }
        let info = machineInfo ?? [:]
        let cpuShowsAHypervisor = optional(&problems) { () throws(SensorError) in
            Virtualization.cpuFlagsShowAHypervisor(
                try SysfsFile.readLeadingText(paths.cpuinfo, count: Virtualization.cpuinfoHead))
        }
        let container = ContainerDetection.detect(paths)
        // In a container the DMI tables are the host's: systemd-hostnamed names no hardware from them there.
        let hardware = container == nil ? dmi : nil
        var identity = DeviceIdentity(
            hostname: String(hostname.prefix(while: { $0 != "\n" })), staticHostname: staticHostname ?? nil,
            prettyHostname: info["PRETTY_HOSTNAME"], deployment: info["DEPLOYMENT"], location: info["LOCATION"],
            iconName: info["ICON_NAME"], chassis: nil, chassisEvidence: nil,
            hardwareVendor: hardware?.vendor, hardwareModel: hardware?.model ?? deviceTree?.model,
            virtualization: dmi.flatMap(Virtualization.hypervisor)
                ?? (cpuShowsAHypervisor == true ? Virtualization.unnamed : nil), container: container,
            dmi: dmi, deviceTree: deviceTree,
            acpiProfile: acpiProfile, operatingSystem: operatingSystem, kernel: .current(), bootID: bootID ?? nil,
            machineID: machineID ?? nil, problems: problems.map(\.description))
        identity.decideChassis(configured: info["CHASSIS"])
        // systemd-hostnamed's fallback when machine-info names no icon.
        if identity.iconName == nil {
            identity.iconName = "computer" + (identity.chassis.map { "-\($0.rawValue)" } ?? "")
        }
        if let configured = info["CHASSIS"], identity.chassisEvidence != .machineInfo {
            identity.problems.append(
                SensorError.malformedValue(
                    path: paths.machineInfo, text: "CHASSIS=\(configured)", expected: "a chassis hostnamectl knows"
                ).description)
        }
        return identity
    }

    /// Sets the chassis from the first evidence that names one, in systemd-hostnamed's order: the administrator's
    /// `configured` class, a container, a hypervisor, SMBIOS, ACPI, the device tree.
    private mutating func decideChassis(configured: String?) {
        if let configured, let found = ChassisClass(rawValue: configured) {
            (chassis, chassisEvidence) = (found, .machineInfo)
        } else if container != nil {
            (chassis, chassisEvidence) = (.container, .virtualization)
        } else if virtualization != nil {
            (chassis, chassisEvidence) = (.vm, .virtualization)
        } else if let type = dmi?.chassisType, let found = ChassisClass(smbiosChassisType: type) {
            (chassis, chassisEvidence) = (found, .dmi)
        } else if let profile = acpiProfile, let found = ChassisClass(acpiProfile: profile) {
            (chassis, chassisEvidence) = (found, .acpi)
        } else if let name = deviceTree?.chassisType, let found = ChassisClass(deviceTreeChassisType: name) {
            (chassis, chassisEvidence) = (found, .deviceTree)
        }
    }

    /// The first os-release file that exists, parsed; a later one is read only when the earlier is missing.
    private static func readOperatingSystem(_ paths: [String], _ problems: inout [SensorError]) -> OperatingSystem? {
        for path in paths {
            do {
                return OperatingSystem(path: path, file: EnvironmentFile(parsing: try SysfsFile.readText(path)))
            } catch .notFound {
                continue
            } catch {
                problems.append(error)
                return nil
            }
        }
        return nil
    }

    /// `read`'s value, or nil when its file is missing, or nil and a problem when it fails otherwise.
    private static func optional<Value>(
        _ problems: inout [SensorError], _ read: () throws(SensorError) -> Value
    ) -> Value? {
        do {
            return try read()
        } catch .notFound {
            return nil
        } catch {
            problems.append(error)
            return nil
        }
    }

    /// The trimmed identifier in `path`; nil when empty or `uninitialized` (a machine id not yet committed).
    ///
    /// - Throws: ``SensorError/malformedValue(path:text:expected:)`` when it is not what `valid` accepts.
    private static func identifier(
        _ path: String, expected: String, valid: (String) -> Bool
    ) throws(SensorError) -> String? {
        let text = try SysfsFile.readText(path).trimmingWhitespace()
        if text.isEmpty || text == "uninitialized" { return nil }
        guard valid(text) else { throw .malformedValue(path: path, text: text, expected: expected) }
        return text
    }

    /// The first line that is neither blank nor a comment, trimmed; nil when there is none (hostname(5)).
    private static func firstLine(_ text: String) -> String? {
        text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).lazy.map { String($0).trimmingWhitespace() }
            .first { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    private static func isHexDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar) || ("a"..."f").contains(scalar)
    }

    private static func isMachineID(_ text: String) -> Bool {
        text.unicodeScalars.count == 32 && text.unicodeScalars.allSatisfy(isHexDigit)
    }

    private static func isUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12]
            && groups.allSatisfy { $0.unicodeScalars.allSatisfy(isHexDigit) }
    }
}
