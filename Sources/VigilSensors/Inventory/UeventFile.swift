/// The `uevent` attribute of a sysfs device: the `KEY=VALUE` lines the kernel sends in the device's uevents
/// (`DEVNAME=video0`, `DEVTYPE=wwan`), one per line, without quoting.
package enum UeventFile {
    /// The properties of a `uevent` text; a line without `=` is ignored, and of a key given twice the last wins.
    package static func properties(_ text: String) -> [String: String] {
        var properties: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            properties[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return properties
    }
}
