extension DisplayConnector {
    /// The text attributes a connector is built from; `edid` is read as bytes beside them.
    static let attributeNames = ["status", "enabled", "dpms", "modes"]

    /// Whether a `/sys/class/drm` entry is a connector: `card<N>-<connector>` (`card0` itself and `renderD128` are
    /// not).
    static func isConnectorName(_ name: String) -> Bool {
        guard name.hasPrefix("card"), let dash = name.firstIndex(of: "-") else { return false }
        let number = name[name.index(name.startIndex, offsetBy: 4)..<dash]
        return !number.isEmpty && number.allSatisfy(\.isASCIIDigit) && name.index(after: dash) < name.endIndex
    }

    /// Builds a connector from its entry name and attributes; pure, it never reads files.
    ///
    /// - Parameters:
    ///   - name: The class entry's name, `card<N>-<type>-<index>`.
    ///   - read: The texts of ``attributeNames``, the bytes of `edid`, and what could not be read.
    ///   - origin: The connector's directory, for notes.
    static func parse(name: String, read: AttributeTexts, origin: String) -> DisplayConnector {
        let dash = name.firstIndex(of: "-") ?? name.endIndex
        let card = String(name[..<dash])
        let connector = dash < name.endIndex ? String(name[name.index(after: dash)...]) : ""
        let type = connectorType(connector)
        var notes = read.failures.sorted { $0.key < $1.key }.map(\.value.description)

        var status = Status.unknown
        if let text = read.texts["status"] {
            if let known = Status(rawValue: text.trimmingWhitespace()) {
                status = known
            } else {
                notes.append("\(origin)/status: \"\(text)\" is not connected, disconnected or unknown")
            }
        }
        var isEnabled: Bool?
        if let text = read.texts["enabled"] {
            switch text.trimmingWhitespace() {
            case "enabled": isEnabled = true
            case "disabled": isEnabled = false
            default: notes.append("\(origin)/enabled: \"\(text)\" is not enabled or disabled")
            }
        }
        let dpms = read.texts["dpms"].map { $0.trimmingWhitespace() }.flatMap { $0.isEmpty ? nil : $0 }
        let modes = (read.texts["modes"] ?? "").split(separator: "\n").map { String($0).trimmingWhitespace() }
            .filter { !$0.isEmpty }
        var edid: EDID?
        if let bytes = read.bytes["edid"], !bytes.isEmpty {
            do {
                edid = try EDID.decode(bytes)
            } catch {
                notes.append("\(origin)/edid: \(error)")
            }
        }
        return DisplayConnector(
            name: name, card: card, connector: connector, type: type, isInternal: internalTypes.contains(type),
            status: status, isEnabled: isEnabled, dpms: dpms, modes: modes, edid: edid, notes: notes)
    }

    /// The type part of a connector name: `eDP-1` → `eDP`, `HDMI-A-2` → `HDMI-A`; the name itself without an index.
    private static func connectorType(_ connector: String) -> String {
        guard let dash = connector.lastIndex(of: "-"),
            connector[connector.index(after: dash)...].allSatisfy(\.isASCIIDigit),
            connector.index(after: dash) < connector.endIndex, dash > connector.startIndex
        else { return connector }
        return String(connector[..<dash])
    }
}

extension Character {
    /// Whether this is one of `0`...`9`.
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
