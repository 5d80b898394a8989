import CLinuxSupport

/// One `struct input_event` as read from an evdev node: a timestamp, a type, a code and a value.
///
/// The struct's size and the layout of its time fields depend on the word size and `time_t`; decoding and encoding
/// go through the C shim, which uses the kernel header's own struct.
package struct InputEvent: Equatable, Sendable {
    /// `EV_SYN`: a synchronisation marker.
    package static let synchronization: UInt16 = 0x00
    /// `EV_SW`: a switch changed.
    package static let switchEvent: UInt16 = 0x05
    /// `SYN_REPORT`: the end of one frame of events.
    package static let report: UInt16 = 0
    /// `SYN_DROPPED`: the kernel's buffer overflowed and events were lost.
    package static let dropped: UInt16 = 3

    /// The timestamp's seconds and microseconds, on the clock the node was set to (`EVIOCSCLOCKID`).
    package var seconds: Int64
    package var microseconds: Int64
    package var type: UInt16
    package var code: UInt16
    package var value: Int32

    package init(seconds: Int64 = 0, microseconds: Int64 = 0, type: UInt16, code: UInt16, value: Int32) {
        self.seconds = seconds
        self.microseconds = microseconds
        self.type = type
        self.code = code
        self.value = value
    }

    /// The size of one event as `read(2)` returns it: 24 bytes on 64-bit machines.
    package static var size: Int { vigil_input_event_size() }

    /// Decodes the event in the first ``size`` bytes of `bytes` (which must hold that many).
    package init(decoding bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count >= Self.size, "an input_event needs \(Self.size) bytes")
        var seconds: Int64 = 0
        var microseconds: Int64 = 0
        var type: UInt16 = 0
        var code: UInt16 = 0
        var value: Int32 = 0
        vigil_input_event_decode(bytes.baseAddress, &seconds, &microseconds, &type, &code, &value)
        self.init(seconds: seconds, microseconds: microseconds, type: type, code: code, value: value)
    }

    /// The event as the kernel writes it, for tests and replays.
    package var bytes: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Self.size)
        bytes.withUnsafeMutableBytes { buffer in
            vigil_input_event_encode(buffer.baseAddress, seconds, microseconds, type, code, value)
        }
        return bytes
    }

    /// The timestamp as a duration since the clock's zero.
    package var timestamp: Duration { .seconds(seconds) + .microseconds(microseconds) }
}
