import CLinuxSupport
import Glibc

/// Calls `body` until it does not fail with `EINTR`: the one way Vigil makes a system call.
///
/// `body` is a system call that returns -1 and sets `errno` on failure (the C convention). Any other failure is
/// thrown as the thread's current ``Errno``, except `EBADF` and `EFAULT`: a descriptor Vigil closed or never opened,
/// or a pointer it got wrong, is a bug in Vigil, not something a caller can handle, so it stops the process with
/// the call's name (as SwiftNIO's `NIOPosix/System.swift` does).
///
/// - Parameters:
///   - call: The call's C name, for the message of a failed precondition.
///   - file: The caller's file, which a failed precondition names.
///   - line: The caller's line, which a failed precondition names.
///   - body: The system call, for example `{ read(fd, buffer, count) }`.
/// - Returns: The call's non-negative result.
/// - Throws: The ``Errno`` the call failed with, never ``Errno/interrupted``, ``Errno/badFileDescriptor`` or
///   ``Errno/badAddress``.
@inline(__always)
package func retryingOnInterrupt<T: BinaryInteger>(
    _ call: StaticString = "a system call", file: StaticString = #fileID, line: UInt = #line, _ body: () -> T
) throws(Errno) -> T {
    while true {
        let result = body()
        if result != -1 { return result }
        let errno = Errno.current
        if errno == .interrupted { continue }
        precondition(
            errno != .badFileDescriptor && errno != .badAddress, "\(call) failed with \(errno): a Vigil bug",
            file: file, line: line)
        throw errno
    }
}

/// Writes all of `bytes` with `write`, retrying after `EINTR` and after a short write, until every byte is taken
/// or the descriptor is full.
///
/// - Parameters:
///   - bytes: What to write.
///   - call: The call's C name (`write`, `send`), for the message of a failed precondition.
///   - file: The caller's file, which a failed precondition names.
///   - line: The caller's line, which a failed precondition names.
///   - write: One `write(2)` or `send(2)` of the bytes it is given; returns the count written or -1 with `errno`.
/// - Returns: How many bytes were written: all of them, or fewer only when a non-blocking descriptor is full
///   (`EAGAIN`); the caller waits for it to become writable and writes the rest.
/// - Throws: The ``Errno`` of a failed write; ``Errno/ioError`` when the call takes nothing of a non-empty buffer,
///   which would otherwise loop forever.
package func writingFully(
    _ bytes: UnsafeRawBufferPointer, call: StaticString = "write", file: StaticString = #fileID, line: UInt = #line,
    with write: (UnsafeRawBufferPointer) -> Int
) throws(Errno) -> Int {
    var offset = 0
    while offset < bytes.count {
        let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
        let written: Int
        do {
            written = try retryingOnInterrupt(call, file: file, line: line) { write(rest) }
        } catch .wouldBlock {
            return offset
        }
        guard written > 0 else { throw .ioError }
        offset += written
    }
    return offset
}

extension FileDescriptor {
    /// Writes all of `bytes`, retrying after `EINTR` and short writes. Wraps `write(2)`.
    ///
    /// - Parameters:
    ///   - bytes: What to write.
    ///   - file: The caller's file, which a failed precondition names.
    ///   - line: The caller's line, which a failed precondition names.
    /// - Returns: The count written: all of `bytes`, or fewer only when the descriptor is non-blocking and full.
    /// - Throws: The ``Errno`` of a failed write.
    @discardableResult
    package func write(
        fully bytes: ArraySlice<UInt8>, file: StaticString = #fileID, line: UInt = #line
    ) throws(Errno) -> Int {
        let fd = rawValue
        return try bytes.withTypedUnsafeBytes { buffer throws(Errno) in
            try writingFully(buffer, call: "write", file: file, line: line) {
                Glibc.write(fd, $0.baseAddress, $0.count)
            }
        }
    }

    /// Sends all of `bytes` on a socket with `MSG_NOSIGNAL` (a closed peer is `EPIPE`, not `SIGPIPE`), retrying after
    /// `EINTR` and short sends. Wraps `send(2)`.
    ///
    /// - Parameters:
    ///   - bytes: What to send.
    ///   - file: The caller's file, which a failed precondition names.
    ///   - line: The caller's line, which a failed precondition names.
    /// - Returns: The count sent: all of `bytes`, or fewer when the socket's send buffer is full.
    /// - Throws: The ``Errno`` of a failed send.
    package func send(
        fully bytes: ArraySlice<UInt8>, file: StaticString = #fileID, line: UInt = #line
    ) throws(Errno) -> Int {
        let fd = rawValue
        return try bytes.withTypedUnsafeBytes { buffer throws(Errno) in
            try writingFully(buffer, call: "send", file: file, line: line) {
                Glibc.send(fd, $0.baseAddress, $0.count, vigil_msg_nosignal())
            }
        }
    }
}

extension ArraySlice<UInt8> {
    /// `withUnsafeBytes` for a body that throws ``Errno`` (the standard library's only rethrows an untyped error).
    fileprivate func withTypedUnsafeBytes<Result>(
        _ body: (UnsafeRawBufferPointer) throws(Errno) -> Result
    ) throws(Errno) -> Result {
        let outcome = withUnsafeBytes { bytes in Swift.Result { () throws(Errno) in try body(bytes) } }
        return try outcome.get()
    }
}
