import Glibc

/// One open descriptor of this process as `/proc/self/fd` and `/proc/self/fdinfo` show it, with enough to tell it
/// from a later descriptor that reuses its number.
///
/// The kernel hands out the lowest free number, so a number alone says nothing: another test may close one and open
/// another under the same number a moment later. A socket, a pipe, a file or a device node has an inode of its own
/// (`st_dev`, `st_ino` of the link); descriptors on the kernel's shared anonymous inode (timerfd, eventfd, inotify,
/// epoll) are told apart by their `fdinfo` (an eventfd's id, an inotify's watched inodes, a timer's clock and
/// interval), without the fields that change as it runs.
package struct OpenDescriptor: Hashable, Sendable, CustomStringConvertible {
    /// The descriptor number.
    package let number: Int32
    /// Where `/proc/self/fd/N` points: a path, `socket:[INODE]`, `pipe:[INODE]` or `anon_inode:…`.
    package let target: String
    /// The device and inode of the open file.
    package let device: UInt64
    package let inode: UInt64
    /// The stable lines of `/proc/self/fdinfo/N` for an anonymous-inode descriptor; empty for others.
    package let details: [String]

    package var description: String { "descriptor \(number) (\(target))" }

    /// Whether the descriptor is on the kernel's shared anonymous inode, where only ``details`` tell two apart.
    package var isAnonymous: Bool { target.hasPrefix("anon_inode:") }

    /// The descriptor `number` as it is now, or nil when it is closed.
    package static func current(_ number: Int32) -> OpenDescriptor? {
        let path = "/proc/self/fd/\(number)"
        guard let target = linkTarget(path) else { return nil }
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let details = target.hasPrefix("anon_inode:") ? stableDetails(of: number) : []
        return OpenDescriptor(
            number: number, target: target, device: UInt64(info.st_dev), inode: UInt64(info.st_ino), details: details)
    }

    /// Every open descriptor of this process.
    package static func all() -> [OpenDescriptor] {
        numbers().compactMap(current)
    }

    /// The numbers listed in `/proc/self/fd`.
    package static func numbers() -> [Int32] {
        directoryEntries("/proc/self/fd").compactMap { Int32($0) }
    }

    /// Whether this very descriptor is still open: the same number on the same open file.
    package var isStillOpen: Bool {
        OpenDescriptor.current(number) == self
    }

    static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink(path, &buffer, buffer.count)
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `fdinfo` without the lines that change while the descriptor lives (position, counters, time left).
    private static func stableDetails(of number: Int32) -> [String] {
        let changing = ["pos:", "ticks:", "it_value:", "eventfd-count:", "tfd:"]
        return fdinfo(number).filter { line in !changing.contains { line.hasPrefix($0) } }
    }

    /// The lines of `/proc/self/fdinfo/N`.
    package static func fdinfo(_ number: Int32) -> [String] {
        guard let text = readWholeFile("/proc/self/fdinfo/\(number)") else { return [] }
        return text.split(separator: "\n").map(String.init)
    }
}

/// The names in the directory at `path` (without `.` and `..`), read with `opendir(3)`; empty when it cannot be read.
///
/// The listing's own descriptor is closed again before this returns, so listing `/proc/self/fd` shows it as a
/// number that is no longer open.
package func directoryEntries(_ path: String) -> [String] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}
