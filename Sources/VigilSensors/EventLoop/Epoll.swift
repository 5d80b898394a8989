import CLinuxSupport
import Glibc

/// Thin wrappers over the epoll, eventfd and timerfd system calls, under their C names.
enum Epoll {
    /// Wraps `epoll_create1(2)` with `EPOLL_CLOEXEC`.
    static func create() throws(Errno) -> FileDescriptor {
        FileDescriptor(try retryingOnInterrupt { epoll_create1(Int32(EPOLL_CLOEXEC)) })
    }

    /// Wraps `epoll_ctl(2)` with `EPOLL_CTL_ADD`; `token` comes back in `epoll_event.data.u64`.
    static func add(_ epoll: Int32, fileDescriptor: Int32, events: UInt32, token: UInt64) throws(Errno) {
        var event = epoll_event()
        event.events = events
        event.data.u64 = token
        _ = try retryingOnInterrupt { epoll_ctl(epoll, EPOLL_CTL_ADD, fileDescriptor, &event) }
    }

    /// Wraps `epoll_ctl(2)` with `EPOLL_CTL_MOD`: new events for a descriptor already in the set.
    static func modify(_ epoll: Int32, fileDescriptor: Int32, events: UInt32, token: UInt64) throws(Errno) {
        var event = epoll_event()
        event.events = events
        event.data.u64 = token
        _ = try retryingOnInterrupt { epoll_ctl(epoll, EPOLL_CTL_MOD, fileDescriptor, &event) }
    }

    /// Wraps `epoll_ctl(2)` with `EPOLL_CTL_DEL`.
    static func remove(_ epoll: Int32, fileDescriptor: Int32) throws(Errno) {
        var event = epoll_event()
        _ = try retryingOnInterrupt { epoll_ctl(epoll, EPOLL_CTL_DEL, fileDescriptor, &event) }
    }

    /// Wraps `eventfd(2)` with `EFD_CLOEXEC | EFD_NONBLOCK`.
    static func eventFileDescriptor() throws(Errno) -> FileDescriptor {
        FileDescriptor(try retryingOnInterrupt { eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK)) })
    }

    /// Wraps `timerfd_create(2)` with `TFD_CLOEXEC | TFD_NONBLOCK`, disarmed.
    ///
    /// - Parameter clock: `CLOCK_BOOTTIME` or `CLOCK_MONOTONIC`.
    static func timer(clock: Int32) throws(Errno) -> FileDescriptor {
        FileDescriptor(try retryingOnInterrupt { timerfd_create(clock, Int32(TFD_CLOEXEC | TFD_NONBLOCK)) })
    }

    /// Wraps `timerfd_settime(2)`: one expiry `delay` from now, or none when `delay` is nil (disarmed).
    ///
    /// A delay of zero or less is raised to one nanosecond, as zero would disarm the timer.
    static func arm(_ timer: Int32, after delay: Duration?) throws(Errno) {
        var spec = itimerspec()
        if let delay { spec.it_value = timespec(max(delay, .nanoseconds(1))) }
        _ = try retryingOnInterrupt { timerfd_settime(timer, 0, &spec, nil) }
    }

    /// Reads and discards the 8-byte counter of an eventfd or timerfd; returns it, or 0 if nothing was pending.
    @discardableResult
    static func drainCounter(_ fd: Int32) -> UInt64 {
        var value: UInt64 = 0
        let count = withUnsafeMutableBytes(of: &value) { buffer in
            try? retryingOnInterrupt { read(fd, buffer.baseAddress, 8) }
        }
        return count == 8 ? value : 0
    }
}

extension timespec {
    /// A `timespec` holding a non-negative `Duration` (negative durations become zero).
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        if seconds < 0 {
            self.init(tv_sec: 0, tv_nsec: 0)
        } else {
            self.init(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        }
    }
}
