import CVigilTestSupport
import Glibc

/// Reads a process's descriptors, threads, CPU time and memory from procfs, for leak, CPU and memory checks.
package enum ProcessProbe {
    /// The number of this process's open descriptors, from `/proc/self/fd`.
    package static func openDescriptorCount() -> Int {
        entries(of: "/proc/self/fd").map { $0.count - 1 } ?? -1  // minus the listing's own descriptor
    }

    /// The number of open descriptors of one kind, by what their `/proc/self/fd` link names: `anon_inode:inotify`,
    /// `anon_inode:[eventpoll]`, `anon_inode:[eventfd]`, `anon_inode:[timerfd]`. Other suites run in parallel and
    /// open descriptors of their own, so a check that only one suite's kind can disturb counts that kind alone.
    package static func openDescriptorCount(linkingTo target: String) -> Int {
        (entries(of: "/proc/self/fd") ?? []).filter { linkTarget("/proc/self/fd/\($0)") == target }.count
    }

    /// Where the symbolic link at `path` points, or nil.
    package static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        let length = readlink(path, &buffer, buffer.count)
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The calling thread's kernel id, as `/proc/self/task` names it.
    package static var currentThreadID: Int32 { vigil_test_thread_id() }

    /// CPU ticks (user + system) of this process's thread `tid` so far, or nil once it is gone.
    package static func cpuTicks(ofThread tid: Int32) -> Int? {
        readFile("/proc/self/task/\(tid)/stat").flatMap(cpuTicks(statLine:))
    }

    /// CPU ticks (user + system) of process `pid` so far, from `/proc/PID/stat`, or nil once it is gone.
    package static func cpuTicks(of pid: pid_t) -> Int? {
        readFile("/proc/\(pid)/stat").flatMap(cpuTicks(statLine:))
    }

    /// CPU seconds (user + system) of process `pid` so far, or nil once it is gone.
    package static func cpuSeconds(of pid: pid_t) -> Double? {
        cpuTicks(of: pid).map { Double($0) / Double(sysconf(Int32(_SC_CLK_TCK))) }
    }

    /// User + system ticks (fields 14 and 15) of a `stat` line; the command field may contain spaces.
    package static func cpuTicks(statLine: String) -> Int? {
        guard let close = statLine.lastIndex(of: ")") else { return nil }
        // After "pid (comm) ": state is field 3, so utime and stime are the 12th and 13th fields from here.
        let fields = statLine[statLine.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    /// The resident memory of process `pid` in kB, from `VmRSS` in `/proc/PID/status`.
    package static func residentKilobytes(of pid: pid_t) -> Int? {
        guard let status = readFile("/proc/\(pid)/status") else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return line?.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    /// A small procfs file as text, without trailing newlines, or nil.
    package static func readFile(_ path: String) -> String? {
        guard var text = readWholeFile(path) else { return nil }
        while text.last == "\n" { text.removeLast() }
        return text
    }

    /// The entry names of the directory at `path`, without `.` and `..`, or nil when it cannot be listed.
    package static func entries(of path: String) -> [String]? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        // d_name is read in place: a record is only as long as its name.
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(directory) {
            let name = String(cString: (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self))
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
