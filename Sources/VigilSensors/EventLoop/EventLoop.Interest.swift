import CLinuxSupport

extension EventLoop {
    /// What a registered descriptor is watched for, and what a handler is told is ready.
    package struct Interest: OptionSet, Hashable, Sendable, CustomStringConvertible {
        package let rawValue: UInt32

        package init(rawValue: UInt32) { self.rawValue = rawValue }

        /// Data can be read (`EPOLLIN`): inotify, netlink sockets, IIO buffers, timers.
        ///
        /// An error or hang-up on the descriptor is reported as readable too, so the handler's read sees it.
        package static let readable = Interest(rawValue: 1 << 0)
        /// Urgent data (`EPOLLPRI`): a sysfs attribute changed (`sysfs_notify`).
        package static let priority = Interest(rawValue: 1 << 1)
        /// Data can be written (`EPOLLOUT`): a socket whose send buffer has room, or whose connect finished.
        ///
        /// Watch it only while there is something to write: a writable socket is ready at every wait.
        package static let writable = Interest(rawValue: 1 << 2)

        /// The epoll event mask for this interest.
        var epollEvents: UInt32 {
            var events: UInt32 = 0
            if contains(.readable) { events |= vigil_epollin() }
            if contains(.priority) { events |= vigil_epollpri() }
            if contains(.writable) { events |= vigil_epollout() }
            return events
        }

        /// The interest an epoll event mask reports.
        init(epollEvents events: UInt32) {
            var interest: Interest = []
            if events & (vigil_epollin() | vigil_epollerr() | vigil_epollhup()) != 0 { interest.insert(.readable) }
            if events & vigil_epollpri() != 0 { interest.insert(.priority) }
            if events & vigil_epollout() != 0 { interest.insert(.writable) }
            self = interest
        }

        package var description: String {
            var names: [String] = []
            if contains(.readable) { names.append("readable") }
            if contains(.priority) { names.append("priority") }
            if contains(.writable) { names.append("writable") }
            return "[" + names.joined(separator: ", ") + "]"
        }
    }
}
