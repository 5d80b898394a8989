import Glibc

@testable import VigilSensors

/// Reads this process's descriptors and threads from procfs, for leak and CPU checks.
enum ProcessProbe {
    /// The number of open descriptors, from `/proc/self/fd`.
    static func openDescriptorCount() -> Int {
        (try? SysfsFile.listDirectory("/proc/self/fd").count - 1) ?? -1  // minus the listing's own descriptor
    }

    /// The number of open descriptors of one kind, by what their `/proc/self/fd` link names: `anon_inode:inotify`,
    /// `anon_inode:[eventpoll]`, `anon_inode:[eventfd]`, `anon_inode:[timerfd]`. Other suites run in parallel and
    /// open descriptors of their own, so a check that only one suite's kind can disturb counts that kind alone.
    static func openDescriptorCount(linkingTo target: String) -> Int {
        let names = (try? SysfsFile.listDirectory("/proc/self/fd")) ?? []
        return names.filter { linkTarget("/proc/self/fd/\($0)") == target }.count
    }

    static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        let length = readlink(path, &buffer, buffer.count)
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// CPU ticks (user + system) of the thread named `name`, from `/proc/self/task/TID/stat`, or nil if none.
    static func cpuTicks(ofThreadNamed name: String) -> Int? {
        for tid in (try? SysfsFile.listDirectory("/proc/self/task")) ?? []
        where readFile("/proc/self/task/\(tid)/comm") == name {
            return readFile("/proc/self/task/\(tid)/stat").flatMap(cpuTicks(statLine:))
        }
        return nil
    }

    /// User + system ticks (fields 14 and 15) of a `stat` line; the command field may contain spaces.
    static func cpuTicks(statLine: String) -> Int? {
        guard let close = statLine.lastIndex(of: ")") else { return nil }
        let fields = statLine[statLine.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    static func readFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count >= 0 else { return nil }
        var text = String(decoding: buffer[0..<count], as: UTF8.self)
        while text.last == "\n" { text.removeLast() }
        return text
    }
}
