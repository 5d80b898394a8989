/// One DRM connector under `/sys/class/drm` (`card0-eDP-1`, `card1-HDMI-A-1`, …): a port a display can be plugged
/// into or a built-in panel, what the kernel knows of its state, and the EDID of the display on it.
///
/// Every attribute is optional: one that is missing or cannot be read leaves its field `nil` (or empty) and adds a
/// line to ``notes``, and hides nothing else.
public struct DisplayConnector: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// Whether a display is on the connector, as the kernel last probed it (`status`).
    public enum Status: String, Sendable, Encodable {
        /// A display is plugged in and answered the probe.
        case connected
        /// Nothing is plugged in.
        case disconnected
        /// The driver cannot tell (some connectors, such as virtual ones, never can).
        case unknown
    }

    /// The class entry's name, for example `card0-eDP-1` (escaped like `ls -b` when not UTF-8).
    public let name: String
    /// The card, for example `card0`.
    public let card: String
    /// The connector within the card, for example `eDP-1`.
    public let connector: String
    /// The connector type as the kernel names it: `eDP`, `DP`, `HDMI-A`, `DVI-D`, `VGA`, `LVDS`, `DSI`, `Virtual`,
    /// `Writeback`, …
    public let type: String
    /// Whether the connector is built in (eDP, LVDS, DSI: a laptop or tablet panel) rather than a port.
    public let isInternal: Bool
    /// Whether a display is connected; ``Status/unknown`` when the kernel cannot tell or `status` is unreadable.
    public let status: Status
    /// Whether the connector drives a CRTC (`enabled`); `nil` when unreadable.
    public let isEnabled: Bool?
    /// The display's power state (`dpms`: `On`, `Standby`, `Suspend` or `Off`); `nil` when unreadable.
    public let dpms: String?
    /// The modes the display offers, preferred first, as the kernel lists them (`1920x1080`, …).
    public let modes: [String]
    /// The display's EDID; `nil` when nothing is connected, the attribute is empty or it cannot be decoded (then
    /// ``notes`` says why).
    public let edid: EDID?
    /// What could not be read or decoded, one line each naming the file. Empty normally.
    public let notes: [String]

    /// Connector types that are built into the device rather than ports.
    static let internalTypes: Set<String> = ["eDP", "LVDS", "DSI"]

    public var description: String {
        var parts = ["\(name) (\(type)\(isInternal ? ", internal" : "")): \(status.rawValue)"]
        if let isEnabled { parts.append(isEnabled ? "enabled" : "disabled") }
        if let dpms { parts.append("dpms \(dpms)") }
        if let preferred = modes.first { parts.append("\(modes.count) modes, \(preferred) first") }
        if let edid { parts.append(edid.description) }
        if !notes.isEmpty { parts.append("[" + notes.joined(separator: "; ") + "]") }
        return parts.joined(separator: ", ")
    }
}
