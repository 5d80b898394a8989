/// One ALSA sound card, from `<proc>/asound/cards` and `<sys>/class/sound/cardN`.
public struct SoundCard: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The card number (`0` for `card0`, `hw:0`).
    public let number: Int
    /// The card's id (`PCH`, `Device`): the name ALSA configurations use (`hw:PCH`).
    public let id: String?
    /// The ALSA driver (`HDA-Intel`, `USB-Audio`), from `/proc/asound/cards`.
    public let driver: String?
    /// The short name (`HDA Intel PCH`), from `/proc/asound/cards`.
    public let shortName: String?
    /// The long name (`HDA Intel PCH at 0xf7f10000 irq 32`), from `/proc/asound/cards`.
    public let longName: String?
    /// The hardware the card belongs to, from sysfs.
    public let parent: ParentDevice?

    /// Creates a card.
    public init(
        number: Int, id: String?, driver: String? = nil, shortName: String? = nil, longName: String? = nil,
        parent: ParentDevice? = nil
    ) {
        self.number = number
        self.id = id
        self.driver = driver
        self.shortName = shortName
        self.longName = longName
        self.parent = parent
    }

    /// For example `card0 PCH (HDA Intel PCH)`.
    public var description: String {
        var text = "card\(number)"
        if let id { text += " " + id }
        if let shortName { text += " (\(shortName))" }
        return text
    }
}
