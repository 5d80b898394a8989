/// The bytes of an evdev node turned into switch changes, frame by frame, with `SYN_DROPPED` handled as libevdev
/// documents: a value type that takes bytes in and hands actions out, testable without a device.
///
/// A read may end inside an event: the partial struct is kept until the rest arrives (never more than one event's
/// bytes). Events are applied per frame, at its `SYN_REPORT`: a frame cut short by `SYN_DROPPED` is discarded. After
/// `SYN_DROPPED` every event up to and including the next `SYN_REPORT` is discarded too, and then the state must be
/// read again with `EVIOCGSW` (``Action/resynchronize``), since what changed meanwhile is lost.
package struct EvdevStream: Sendable {
    /// What the caller does next.
    package enum Action: Equatable, Sendable {
        /// A complete frame changed these switches (in order; the last change of a code wins).
        case changes([InputEvent])
        /// Events were lost: read every switch again and publish what differs.
        case resynchronize
    }

    private var partial: [UInt8] = []
    private var frame: [InputEvent] = []
    private var dropping = false

    package init() {}

    /// How many bytes of an incomplete event are kept.
    package var pendingByteCount: Int { partial.count }

    /// Whether events are being discarded after `SYN_DROPPED`, until the next `SYN_REPORT`.
    package var isDropping: Bool { dropping }

    /// Takes the bytes of one read and returns what they complete, in order.
    package mutating func consume(_ bytes: some Collection<UInt8>) -> [Action] {
        partial.append(contentsOf: bytes)
        let size = InputEvent.size
        let whole = partial.count / size * size
        guard whole > 0 else { return [] }
        let events = partial.withUnsafeBytes { buffer in
            stride(from: 0, to: whole, by: size).map { offset in
                InputEvent(decoding: UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + size)]))
            }
        }
        partial.removeFirst(whole)
        return events.compactMap { handle($0) }
    }

    private mutating func handle(_ event: InputEvent) -> Action? {
        switch (event.type, event.code) {
        case (InputEvent.synchronization, InputEvent.dropped):
            dropping = true
            frame = []
            return nil
        case (InputEvent.synchronization, InputEvent.report):
            if dropping {
                dropping = false
                return .resynchronize
            }
            defer { frame = [] }
            return frame.isEmpty ? nil : .changes(frame)
        case (InputEvent.switchEvent, _):
            if !dropping { frame.append(event) }
            return nil
        default:
            return nil
        }
    }
}
