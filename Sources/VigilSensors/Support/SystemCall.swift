import CLinuxSupport

/// Calls `body` until it does not fail with `EINTR`.
///
/// `body` is a system call that returns -1 and sets `errno` on failure (the C convention). Any other failure is
/// thrown as the thread's current ``Errno``.
///
/// - Parameter body: The system call, for example `{ read(fd, buffer, count) }`.
/// - Returns: The call's non-negative result.
/// - Throws: The ``Errno`` the call failed with, never ``Errno/interrupted``.
@inline(__always)
func retryingOnInterrupt<T: BinaryInteger>(_ body: () -> T) throws(Errno) -> T {
    while true {
        let result = body()
        if result != -1 { return result }
        let errno = Errno.current
        if errno != .interrupted { throw errno }
    }
}
