/// The reads of `/dev/rfkill` turned into what the ``RadioMonitor`` does next: a value type that takes one read's
/// bytes in and hands an action out, testable without a device.
///
/// The kernel hands out one event per `read(2)`, cut to the buffer's size, so each read is one event: any size from 8
/// bytes on is decoded (``RfkillEvent``), fewer is a truncated event that only a re-read of sysfs can repair.
///
/// The kernel queues at most about 1,000 events per reader (`MAX_RFKILL_EVENT` in `net/rfkill/core.c`: an event is
/// dropped, silently, while 1,001 wait) and says nothing when it drops one. A drop can only happen while the queue is
/// full, and every event queued then is read before the queue is next found empty, so a drain that reads
/// ``kernelQueueLimit`` events or more between two empty reads (`EAGAIN`) may have lost some: the stream then asks
/// for a re-read of sysfs once the queue is empty (``drained()``), when every later change makes an event of its own.
/// Events read meanwhile are still applied; the re-read after them holds the truth.
package struct RfkillStream: Sendable {
    /// What the caller does next.
    package enum Action: Equatable, Sendable {
        /// Apply this event to the current reading (a re-read of sysfs when the reading cannot place it).
        case apply(RfkillEvent)
        /// Read every switch from sysfs again, for this reason.
        case resynchronize(String)
        /// Nothing yet.
        case none
    }

    /// How many events the kernel keeps waiting for one reader before it drops new ones (`MAX_RFKILL_EVENT`).
    package static let kernelQueueLimit = 1000

    /// The bytes asked for per read: 9 once `RFKILL_IOCTL_MAX_SIZE` was accepted, else 8.
    package let eventSize: Int
    private var readSinceEmpty = 0
    private var lossSuspected = false

    /// A stream whose reads ask for `eventSize` bytes.
    package init(eventSize: Int) {
        self.eventSize = eventSize
    }

    /// How many events were read since the queue was last found empty.
    package var eventsSinceEmpty: Int { readSinceEmpty }

    /// Takes the bytes of one read.
    package mutating func consume(_ bytes: some Collection<UInt8>) -> Action {
        readSinceEmpty += 1
        if readSinceEmpty >= Self.kernelQueueLimit { lossSuspected = true }
        guard let event = RfkillEvent(bytes: bytes) else {
            return .resynchronize("/dev/rfkill returned a truncated event of \(bytes.count) bytes")
        }
        return .apply(event)
    }

    /// Notes that a read found the queue empty; returns a re-read when the drain may have lost events.
    package mutating func drained() -> Action {
        defer {
            readSinceEmpty = 0
            lossSuspected = false
        }
        guard lossSuspected else { return .none }
        return .resynchronize(
            "\(readSinceEmpty) events were read in one drain; the kernel may have dropped some beyond its "
                + "\(Self.kernelQueueLimit)-event queue")
    }
}
