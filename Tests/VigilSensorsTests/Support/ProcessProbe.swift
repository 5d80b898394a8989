import Glibc

/// Reads this process's descriptors and threads from procfs, for leak and CPU checks.
enum ProcessProbe {
    /// The number of open descriptors, from `/proc/self/fd`.
    static func openDescriptorCount() -> Int {
        guard let directory = opendir("/proc/self/fd") else { return -1 }
        defer { closedir(directory) }
        var count = 0
        while readdir(directory) != nil { count += 1 }
        return count - 3  // ".", ".." and the directory's own descriptor
    }

    /// CPU ticks (user + system) of the thread named `name`, from `/proc/self/task/TID/stat`, or nil if none.
    static func cpuTicks(ofThreadNamed name: String) -> Int? {
        guard let directory = opendir("/proc/self/task") else { return nil }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let tid = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard tid.first?.isNumber == true, readFile("/proc/self/task/\(tid)/comm") == name else { continue }
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
