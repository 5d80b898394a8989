import CVigilTestSupport
import Glibc

/// A second reference to one open descriptor's file, so a later check can tell whether the descriptor's number still
/// names that very file.
///
/// ``OpenDescriptor/isStillOpen`` cannot tell two timerfds apart: they share the kernel's anonymous inode and the same
/// `fdinfo`, and another suite may reopen the number on a timer of its own the moment it is closed (every source that
/// refreshes after a wake holds a cancel-on-set timer). The pin is a duplicate taken while the number is known to be
/// the one meant; `kcmp(2)` then compares the files themselves. It holds the file open until the pin is released,
/// which changes nothing its owner sees: the owner's own descriptor is the one it closes and unregisters.
package final class PinnedDescriptor: Sendable, CustomStringConvertible {
    /// The descriptor pinned, as it was when pinned.
    package let descriptor: OpenDescriptor
    /// The duplicate, above the numbers a test usually sees, closed on deinit.
    private let pin: Int32

    /// Pins `descriptor`'s file; nil when it is closed already.
    package init?(_ descriptor: OpenDescriptor) {
        let pin = fcntl(descriptor.number, F_DUPFD_CLOEXEC, 256)
        guard pin >= 0 else { return nil }
        self.descriptor = descriptor
        self.pin = pin
    }

    deinit { close(pin) }

    /// Whether the descriptor's number still names the pinned file (false once its owner closed it, even when the
    /// number has been reused since).
    package var isStillOpen: Bool { vigil_test_same_open_file(descriptor.number, pin) == 1 }

    package var description: String { descriptor.description }
}

extension [OpenDescriptor] {
    /// Pins of these descriptors (those still open).
    package func pinned() -> [PinnedDescriptor] { compactMap(PinnedDescriptor.init) }
}
