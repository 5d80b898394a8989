/// One event of `/dev/rfkill`: `struct rfkill_event` (8 bytes: `idx` u32 in host order, `type`, `op`, `soft`,
/// `hard`) or `struct rfkill_event_ext` (9 bytes: and `hard_block_reasons`).
///
/// Any size from 8 bytes on is accepted and bytes this code does not know are ignored, as the kernel's ABI asks of
/// readers; fewer than 8 bytes are no event.
package struct RfkillEvent: Sendable, Equatable {
    /// What happened to the switch.
    package enum Operation: Sendable, Equatable {
        /// A switch was registered (`RFKILL_OP_ADD`); the kernel also sends one per switch when the device is opened.
        case add
        /// A switch was unregistered (`RFKILL_OP_DEL`).
        case delete
        /// A switch's state changed (`RFKILL_OP_CHANGE`).
        case change
        /// Every switch of a type was set (`RFKILL_OP_CHANGE_ALL`, a request written by user space).
        case changeAll
        /// An operation number this code does not know.
        case unknown(UInt8)

        init(_ raw: UInt8) {
            switch raw {
            case 0: self = .add
            case 1: self = .delete
            case 2: self = .change
            case 3: self = .changeAll
            default: self = .unknown(raw)
            }
        }
    }

    /// The size of `struct rfkill_event` (`RFKILL_EVENT_SIZE_V1`).
    package static let minimumSize = 8
    /// The size of `struct rfkill_event_ext`, with the hard-block reasons.
    package static let extendedSize = 9
    /// The names of the kernel's `enum rfkill_type`, as sysfs `type` shows them (0 is `RFKILL_TYPE_ALL`).
    static let typeNames = ["all", "wlan", "bluetooth", "ultrawideband", "wimax", "wwan", "gps", "fm", "nfc"]

    /// The switch's kernel index (sysfs `index`).
    package let index: UInt32
    /// The radio type's number (`enum rfkill_type`).
    package let type: UInt8
    /// What happened.
    package let operation: Operation
    /// Whether software blocks the radio.
    package let softBlocked: Bool
    /// Whether hardware blocks the radio.
    package let hardBlocked: Bool
    /// The hard-block reasons, present in events of 9 bytes or more.
    package let hardBlockReasons: RadioSwitch.HardBlockReasons?

    /// Decodes one event from the bytes of one read; nil for fewer than 8 bytes (a truncated event).
    package init?(bytes: some Collection<UInt8>) {
        let bytes = Array(bytes)
        guard bytes.count >= Self.minimumSize else { return nil }
        index = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        type = bytes[4]
        operation = Operation(bytes[5])
        softBlocked = bytes[6] != 0
        hardBlocked = bytes[7] != 0
        hardBlockReasons = bytes.count >= Self.extendedSize ? RadioSwitch.HardBlockReasons(rawValue: bytes[8]) : nil
    }

    /// Creates an event (tests and the fuzzer encode it with ``bytes(size:)``).
    package init(
        index: UInt32, type: UInt8, operation: Operation, softBlocked: Bool, hardBlocked: Bool,
        hardBlockReasons: RadioSwitch.HardBlockReasons? = nil
    ) {
        self.index = index
        self.type = type
        self.operation = operation
        self.softBlocked = softBlocked
        self.hardBlocked = hardBlocked
        self.hardBlockReasons = hardBlockReasons
    }

    /// The type's name as sysfs shows it, or nil for a number this code does not know.
    package var typeName: String? {
        Int(type) < Self.typeNames.count ? Self.typeNames[Int(type)] : nil
    }

    /// The event as the kernel writes it, `size` bytes long (8, 9, or more with zeros after the known fields).
    package func bytes(size: Int = extendedSize) -> [UInt8] {
        let op: UInt8 =
            switch operation {
            case .add: 0
            case .delete: 1
            case .change: 2
            case .changeAll: 3
            case .unknown(let raw): raw
            }
        var result = withUnsafeBytes(of: index) { Array($0) }
        result += [type, op, softBlocked ? 1 : 0, hardBlocked ? 1 : 0, hardBlockReasons?.rawValue ?? 0]
        result += [UInt8](repeating: 0, count: max(0, size - result.count))
        return Array(result.prefix(max(size, 0)))
    }
}
