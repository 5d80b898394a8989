/// Whether this process runs in a container, from the markers `systemd-detect-virt --container` reads, in its order,
/// so the chassis is `container` where systemd-hostnamed says so.
///
/// 1. OpenVZ: `<proc>/vz` without `<proc>/bc`.
/// 2. WSL: `Microsoft` or `WSL` in `<proc>/sys/kernel/osrelease`.
/// 3. What the container manager wrote: `<root>/run/host/container-manager`, then `<root>/run/systemd/container`,
///    then `container=` in PID 1's environment (`<proc>/1/environ`, readable only by its owner).
/// 4. Files an engine leaves: `<root>/run/.containerenv` (Podman), `<root>/.dockerenv` (Docker).
///
/// The markers under the file-system root are read only where that root is known (``IdentityPaths/fileSystemRoot``):
/// never beside a fake etc root, where they would be the test machine's own. A marker that cannot be read counts as
/// absent: none of them is a problem worth reporting.
enum ContainerDetection {
    /// The names systemd gives the managers it knows; any other name a manager writes is `container-other`.
    private static let knownManagers: Set<String> = [
        "openvz", "lxc", "lxc-libvirt", "systemd-nspawn", "docker", "podman", "rkt", "wsl", "proot", "pouch",
    ]

    /// The container's `systemd-detect-virt` id (`docker`, `podman`, `lxc`, `wsl`, …), or nil when no marker says so.
    static func detect(_ paths: IdentityPaths) -> String? {
        if SysfsFile.exists(paths.proc + "/vz") && !SysfsFile.exists(paths.proc + "/bc") { return "openvz" }
        if let release = try? SysfsFile.readText(paths.proc + "/sys/kernel/osrelease"),
            release.contains("Microsoft") || release.contains("WSL")
        {
            return "wsl"
        }
        let root = paths.fileSystemRoot
        for file in ["/run/host/container-manager", "/run/systemd/container"] {
            guard let root, let text = try? SysfsFile.readText(root + file) else { continue }
            if let name = managerName(text) { return name }
        }
        if let environment = try? SysfsFile.readBytes(paths.proc + "/1/environ", limit: 64 * 1024),
            let name = managerName(fromEnvironment: environment)
        {
            return name
        }
        guard let root else { return nil }
        if SysfsFile.exists(root + "/run/.containerenv") { return "podman" }
        if SysfsFile.exists(root + "/.dockerenv") { return "docker" }
        return nil
    }

    /// The manager named by the first line of `text`, mapped to systemd's id; nil for an empty line.
    static func managerName(_ text: String) -> String? {
        let name = String(text.prefix(while: { $0 != "\n" })).trimmingWhitespace()
        guard !name.isEmpty else { return nil }
        return knownManagers.contains(name) ? name : "container-other"
    }

    /// The value of `container=` in a NUL-separated environment block, mapped as ``managerName(_:)`` maps it.
    static func managerName(fromEnvironment bytes: [UInt8]) -> String? {
        let prefix = Array("container=".utf8)
        for entry in bytes.split(separator: 0) where entry.starts(with: prefix) {
            return managerName(String(decoding: entry.dropFirst(prefix.count), as: UTF8.self))
        }
        return nil
    }
}
