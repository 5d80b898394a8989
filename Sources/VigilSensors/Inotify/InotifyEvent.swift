/// One `struct inotify_event` record as the kernel wrote it.
///
/// ``parse(_:)-(UnsafeRawBufferPointer)`` is a pure function over bytes: any input, truncated or garbage, yields
/// records or a ``SensorError``, never a crash.
package struct InotifyEvent: Hashable, Sendable {
    /// The watch descriptor the event belongs to (-1 for a queue overflow).
    package var watchDescriptor: Int32
    /// The `IN_*` bits.
    package var mask: UInt32
    /// Pairs `IN_MOVED_FROM` with `IN_MOVED_TO` of the same rename.
    package var cookie: UInt32
    /// The entry name inside the watched directory, byte-exact; empty for events on the watched object itself.
    package var name: BytePath

    /// Size of the fixed part of a record: `wd`, `mask`, `cookie`, `len`.
    package static let headerSize = 16
    /// The longest name field accepted (`NAME_MAX` plus padding); longer means the input is garbage.
    package static let maximumNameLength = 4096

    /// Creates a record.
    package init(watchDescriptor: Int32, mask: UInt32, cookie: UInt32, name: BytePath) {
        self.watchDescriptor = watchDescriptor
        self.mask = mask
        self.cookie = cookie
        self.name = name
    }

    /// Parses the records of one `read(2)` from an inotify descriptor.
    ///
    /// - Returns: The records in order.
    /// - Throws: ``SensorError/malformedMessage(source:reason:)`` if a record is truncated or its name length is
    ///   impossible.
    package static func parse(_ bytes: UnsafeRawBufferPointer) throws(SensorError) -> [InotifyEvent] {
        var events: [InotifyEvent] = []
        var offset = 0
        while offset < bytes.count {
            let remaining = bytes.count - offset
            guard remaining >= headerSize else {
                throw malformed("truncated header: \(remaining) of \(headerSize) bytes at offset \(offset)")
            }
            let watchDescriptor = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
            let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            let cookie = bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
            let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            guard length <= maximumNameLength, length <= remaining - headerSize else {
                throw malformed(
                    "name length \(length) exceeds the \(remaining - headerSize) bytes left at offset \(offset)")
            }
            let nameBytes = bytes[(offset + headerSize)..<(offset + headerSize + length)]
            let name = BytePath(bytes: nameBytes)
            events.append(InotifyEvent(watchDescriptor: watchDescriptor, mask: mask, cookie: cookie, name: name))
            offset += headerSize + length
        }
        return events
    }

    /// Parses records from an array of bytes; see ``parse(_:)-(UnsafeRawBufferPointer)``.
    package static func parse(_ bytes: [UInt8]) throws(SensorError) -> [InotifyEvent] {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(SensorError) in try parse(buffer) }
        }
        return try result.get()
    }

    private static func malformed(_ reason: String) -> SensorError {
        .malformedMessage(source: "inotify", reason: reason)
    }
}
