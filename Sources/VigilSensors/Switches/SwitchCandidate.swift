/// An evdev device under `<root>/class/input` that reports switches, as sysfs describes it: where its node is, its
/// name, and which switches it has.
struct SwitchCandidate: Sendable, Equatable {
    /// The evdev name, for example `event0`.
    let node: String
    /// The number in the evdev name, which orders the devices.
    let number: Int
    /// The device's name; bytes that are not UTF-8 are replaced, and a missing name is the evdev name.
    let name: String
    /// The device node, `<devRoot>/input/eventN`.
    let path: String
    /// The switches in its `capabilities/sw` bitmap.
    let supported: [SwitchKind]

    /// `EV_SW` in the `capabilities/ev` bitmap.
    static let switchEventType = 5
    /// The longest evdev number read: the kernel numbers nodes below 2^20.
    static let maximumNumberDigits = 9
    /// The most characters of a device name kept: the kernel's names are short, a hostile tree's need not be.
    static let maximumNameLength = 256

    /// The evdev devices with switches under `<root>/class/input`, by number, and the entries that could not be read.
    ///
    /// An entry is an evdev node when its name is `event` and digits; it has switches when its device's
    /// `capabilities/ev` has `EV_SW` and `capabilities/sw` a bit set. One unreadable or malformed entry is a problem
    /// that hides only itself.
    ///
    /// - Throws: A ``SensorError`` when `<root>/class/input` cannot be listed.
    static func scan(root: String, devRoot: String) throws(SensorError) -> (
        devices: [SwitchCandidate], problems: [String]
    ) {
        let classPath = SysfsClass.path(root: root, className: "input")
        var devices: [SwitchCandidate] = []
        var problems: [String] = []
        for entry in try SysfsFile.listDirectory(classPath) {
            guard let number = evdevNumber(entry) else { continue }
            let device = classPath + "/" + entry + "/device"
            do {
                let events = try CapabilityBitmap(
                    text: try SysfsFile.readText(device + "/capabilities/ev"), path: device + "/capabilities/ev")
                guard events.contains(switchEventType) else { continue }
                let switches = try CapabilityBitmap(
                    text: try SysfsFile.readText(device + "/capabilities/sw"), path: device + "/capabilities/sw"
                ).bits.filter { $0 <= SwitchKind.maximumCode }
                guard !switches.isEmpty else { continue }
                let text = (try? SysfsFile.readText(device + "/name")) ?? ""
                let name = text.isEmpty ? entry : String(text.prefix(maximumNameLength))
                devices.append(
                    SwitchCandidate(
                        node: entry, number: number, name: name, path: devRoot + "/input/" + entry,
                        supported: switches.map(SwitchKind.init(code:))))
            } catch {
                problems.append("\(entry): \(error)")
            }
        }
        return (devices.sorted { $0.number < $1.number }, problems)
    }

    /// The number of an evdev entry name (`event12` is 12), or nil for another entry (`input5`, `mouse0`).
    static func evdevNumber(_ entry: String) -> Int? {
        guard entry.hasPrefix("event") else { return nil }
        let digits = entry.dropFirst("event".count)
        guard !digits.isEmpty, digits.count <= maximumNumberDigits, digits.allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        return Int(digits)
    }
}
