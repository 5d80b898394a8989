/// One switch of an input device and its position.
public struct SwitchState: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// Which switch.
    public let kind: SwitchKind
    /// Whether it is in its set position (``SwitchKind/onWord``: the lid closed, a jack inserted).
    public let isOn: Bool
    /// When the kernel reported this position in an event (its timestamp), or nil when it was read with `EVIOCGSW`
    /// (at open, after lost events, or on a refresh) and the time it changed is unknown.
    public let changed: ReadingTime?

    /// Creates a state.
    public init(kind: SwitchKind, isOn: Bool, changed: ReadingTime? = nil) {
        self.kind = kind
        self.isOn = isOn
        self.changed = changed
    }

    /// The position in words: `closed`, `inserted`, `off`.
    public var word: String { isOn ? kind.onWord : kind.offWord }

    /// For example `lid closed`.
    public var description: String { "\(kind.name) \(word)" }

    private enum CodingKeys: String, CodingKey {
        case kind = "switch", isOn = "on", word = "state", changed
    }

    /// `{"switch": "lid", "on": true, "state": "closed", "changed": …}`, without `changed` when unknown.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(isOn, forKey: .isOn)
        try container.encode(word, forKey: .word)
        try container.encodeIfPresent(changed, forKey: .changed)
    }
}
