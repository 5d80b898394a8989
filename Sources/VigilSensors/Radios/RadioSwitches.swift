/// The radio switches of the machine at one moment: every rfkill switch under `<sys>/class/rfkill`, the entries
/// that could not be read, and whether `/dev/rfkill` is followed.
public struct RadioSwitches: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The switches, by class entry name.
    public let switches: [RadioSwitch]
    /// Entries or attributes that could not be read, each naming its path and what is wrong.
    public let problems: [String]
    /// The rfkill event device followed for changes (`/dev/rfkill`), or nil when only sysfs and uevents serve.
    public let eventDevice: String?
    /// Why `/dev/rfkill` is not followed (missing, not readable by this user, not a character device); nil when it
    /// is. Changes are then seen through uevents and the periodic re-read.
    public let eventDeviceProblem: String?

    /// Creates a reading.
    public init(
        switches: [RadioSwitch], problems: [String] = [], eventDevice: String? = nil,
        eventDeviceProblem: String? = nil
    ) {
        self.switches = switches
        self.problems = problems
        self.eventDevice = eventDevice
        self.eventDeviceProblem = eventDeviceProblem
    }

    /// The switch with kernel index `index`, if any.
    public func radioSwitch(index: UInt32) -> RadioSwitch? {
        switches.first { $0.index == index }
    }

    /// Whether every radio of `type` (`wlan`, `bluetooth`, …) is blocked: true when each switch of that type blocks
    /// (soft or hard), false when one lets its radio transmit, nil when none has the type or a state is unknown.
    public func isBlocked(type: String) -> Bool? {
        let states = switches.filter { $0.type == type }.map(\.isUnblocked)
        guard !states.isEmpty, !states.contains(nil) else { return nil }
        return !states.contains(true)
    }

    /// For example `phy0 (rfkill1, wlan) unblocked; hci0 (rfkill2, bluetooth) soft-blocked`.
    public var description: String {
        let lines =
            switches.map { radio -> String in
                let details = ([radio.label == nil ? nil : radio.name, radio.type].compactMap { $0 })
                let state = radio.description.dropFirst(radio.name.count + 1)
                let head = radio.label ?? radio.name
                return details.isEmpty ? "\(head) \(state)" : "\(head) (\(details.joined(separator: ", "))) \(state)"
            } + problems
        return lines.isEmpty ? "no radio switches" : lines.joined(separator: "; ")
    }
}

extension RadioSwitches {
    /// Reads every switch under `<root>/class/rfkill`, noting how changes are followed.
    ///
    /// - Throws: ``SensorError/notFound(path:)`` when `root` is gone, or a ``SensorError`` when the class directory
    ///   exists but cannot be listed.
    static func read(root: String, eventDevice: String?, eventDeviceProblem: String?) throws(SensorError)
        -> RadioSwitches
    {
        let found = try RadioSwitch.readAll(root: root) { radioSwitch, _ in radioSwitch }
        return RadioSwitches(
            switches: found.devices, problems: found.problems, eventDevice: eventDevice,
            eventDeviceProblem: eventDeviceProblem)
    }

    /// This reading with `event` applied, or nil when only a re-read from sysfs can tell what it means (a switch
    /// added or unknown, an operation this code does not know).
    package func applying(_ event: RfkillEvent) -> RadioSwitches? {
        switch event.operation {
        case .delete:
            return replacing(switches.filter { $0.index != event.index })
        case .add, .change:
            guard let position = switches.firstIndex(where: { $0.index == event.index }) else { return nil }
            var all = switches
            let old = all[position]
            // Without the reason byte (8-byte events) the reasons stay as sysfs said while hard-blocked; a lifted
            // hard block has none (the kernel blocks in hardware exactly while some reason is set).
            let reasons: RadioSwitch.HardBlockReasons? =
                event.hardBlockReasons
                ?? (event.hardBlocked
                    ? old.hardBlockReasons.flatMap { $0.isEmpty ? nil : $0 }
                    : old.hardBlockReasons.map { _ in [] })
            all[position] = RadioSwitch(
                name: old.name, label: old.label, type: old.type ?? event.typeName, softBlocked: event.softBlocked,
                hardBlocked: event.hardBlocked, index: old.index, hardBlockReasons: reasons)
            return replacing(all)
        case .changeAll, .unknown:
            return nil
        }
    }

    /// This reading with `eventDevice` and `problem` as the event device's state.
    func following(_ eventDevice: String?, problem: String?) -> RadioSwitches {
        RadioSwitches(switches: switches, problems: problems, eventDevice: eventDevice, eventDeviceProblem: problem)
    }

    private func replacing(_ switches: [RadioSwitch]) -> RadioSwitches {
        RadioSwitches(
            switches: switches, problems: problems, eventDevice: eventDevice, eventDeviceProblem: eventDeviceProblem)
    }
}
