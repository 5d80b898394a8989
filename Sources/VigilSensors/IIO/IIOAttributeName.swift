/// The parts of an IIO channel attribute's file name, `in_<type>[<index>][_<modifier>]_<attribute>`.
///
/// `in_accel_x_raw` is type `accel`, modifier `x`, attribute `raw`; `in_illuminance0_input` is type `illuminance`,
/// index 0, attribute `input`; `in_accel_scale` (no modifier) is the scale shared by every `accel` channel.
struct IIOAttributeName: Hashable, Sendable {
    /// The channel type: `accel`, `anglvel`, `magn`, `illuminance`, `proximity`, `pressure`, …
    var type: String
    /// The channel number after the type, as in `illuminance0`.
    var index: Int?
    /// The modifier, usually an axis: `x`, `y`, `z`; nil for a shared attribute or an unmodified channel.
    var modifier: String?
    /// The attribute: `raw`, `input`, `scale`, `offset`, `en`, `index`, `type`, …
    var attribute: String

    /// The channel's name without `in_` and the attribute: `accel_x`, `illuminance0`, `pressure`.
    var channelName: String {
        let indexed = index.map { "\(type)\($0)" } ?? type
        return modifier.map { "\(indexed)_\($0)" } ?? indexed
    }

    /// Splits `fileName` when it has the form `in_…_<one of attributes>`; nil otherwise.
    init?(fileName: String, attributes: Set<String>) {
        guard fileName.hasPrefix("in_") else { return nil }
        var parts = fileName.dropFirst(3).split(separator: "_", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, let attribute = parts.popLast(), attributes.contains(attribute) else { return nil }
        let head = parts.removeFirst()
        let typeEnd = head.lastIndex { !$0.isNumber }.map { head.index(after: $0) } ?? head.startIndex
        let type = String(head[..<typeEnd])
        guard !type.isEmpty, parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        self.type = type
        self.index = typeEnd == head.endIndex ? nil : Int(head[typeEnd...])
        self.modifier = parts.isEmpty ? nil : parts.joined(separator: "_")
        self.attribute = attribute
    }
}
