/// The machine's identity from its flattened device tree (`<proc>/device-tree`, the link to
/// `/sys/firmware/devicetree/base`): what ARM and RISC-V boards have instead of SMBIOS.
public struct DeviceTreeIdentity: Sendable, Equatable, Encodable {
    /// The root node's `model`, for example "Raspberry Pi 4 Model B Rev 1.4".
    public var model: String?
    /// The root node's `compatible` list, most specific first, for example `["raspberrypi,4-model-b",
    /// "brcm,bcm2711"]`.
    public var compatible: [String]
    /// The root node's `chassis-type`, for example `handset`.
    public var chassisType: String?

    /// Reads `model`, `compatible` and `chassis-type` under `directory`; nil when the directory does not exist.
    ///
    /// Device-tree strings end in NUL, and a list is NUL-separated; a file that cannot be read hides only itself and
    /// `problems` gets why.
    package static func read(directory: String, problems: inout [SensorError]) -> DeviceTreeIdentity? {
        guard SysfsFile.isDirectory(directory) else { return nil }
        func strings(_ name: String) -> [String] {
            do {
                let bytes = try SysfsFile.readBytes(directory + "/" + name)
                return bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self).trimmingDMIBlanks() }
                    .filter { !$0.isEmpty }
            } catch .notFound {
                return []
            } catch {
                problems.append(error)
                return []
            }
        }
        return DeviceTreeIdentity(
            model: strings("model").first, compatible: strings("compatible"), chassisType: strings("chassis-type").first
        )
    }
}
