import Foundation
import Glibc
import Testing
import VigilTestSupport

/// A child process (`vigil`, `prometheus`, `promtool`) with its output in files of a temporary directory; killed
/// and reaped when released.
final class ChildProcess {
    let pid: pid_t
    let outputPath: String
    let errorPath: String
    private var status: Int32?

    /// The built `vigil` (see `builtVigil`).
    static var vigil: String? { builtVigil }

    /// The path of `name` in `/usr/bin`, `/usr/local/bin` or `/bin`, or nil.
    static func installed(_ name: String) -> String? {
        ["/usr/bin", "/usr/local/bin", "/bin"].map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// Starts `command` with `arguments`; standard output and error go to files in `directory`, standard input
    /// reads `input` (a file path) or /dev/null.
    init(_ command: String, _ arguments: [String], directory: String, input: String = "/dev/null") throws {
        let name = URL(fileURLWithPath: command).lastPathComponent + "-\(UUID().uuidString.prefix(8))"
        outputPath = directory + "/" + name + ".out"
        errorPath = directory + "/" + name + ".err"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv: [UnsafeMutablePointer<CChar>?] = ([command] + arguments).map { strdup($0) } + [nil]
        let environment: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/usr/bin:/bin"), nil]
        defer { for pointer in argv + environment { free(pointer) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, command, &actions, nil, argv, environment)
        pid = child
        try #require(spawned == 0, "posix_spawn \(command) failed: \(spawned)")
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            var raw: Int32 = 0
            waitpid(pid, &raw, 0)
        }
    }

    var standardOutput: String { readWholeFile(outputPath) ?? "" }
    var standardError: String { readWholeFile(errorPath) ?? "" }

    /// Whether the child still runs; reaps it once it exited.
    var isRunning: Bool {
        guard status == nil else { return false }
        var raw: Int32 = 0
        guard waitpid(pid, &raw, WNOHANG) == pid else { return true }
        status = (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
        return false
    }

    /// Sends `signal` and waits (bounded) for the exit; returns the exit status, or nil if it did not exit.
    func stop(_ signal: Int32 = SIGTERM, timeout: Double = 20) -> Int32? {
        if isRunning { kill(pid, signal) }
        guard eventually(timeout: timeout, { !isRunning }) else { return nil }
        return status
    }

    /// Waits (bounded) for the child to exit by itself; the exit status, or nil.
    func waitForExit(timeout: Double = 60) -> Int32? {
        guard eventually(timeout: timeout, { !isRunning }) else { return nil }
        return status
    }

    /// utime + stime of the child so far, in seconds, from `/proc/PID/stat`.
    var cpuSeconds: Double? {
        guard let text = readWholeFile("/proc/\(pid)/stat"),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name: state is field 3, utime 14 and stime 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}

/// A loopback TCP port nothing listens on right now (bound with port 0, then released).
func freePort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
        }
    }
    try #require(bound)
    return UInt16(bigEndian: address.sin_port)
}

/// A temporary directory, removed with its contents when released.
final class ScratchDirectory {
    let path: String

    init(_ prefix: String) throws {
        var template = Array((NSTemporaryDirectory() + "/\(prefix)-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        try #require(made != nil)
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `text` to `relative` (parents created).
    func write(_ relative: String, _ text: String) {
        let url = URL(fileURLWithPath: path + "/" + relative)
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data(text.utf8).write(to: url)
    }
}

/// Starts `vigil ARGUMENTS serve --listen 127.0.0.1:0 SERVE_ARGUMENTS` and finds the port it prints.
func startServe(_ serveArguments: [String], globals: [String] = [], in scratch: ScratchDirectory) throws -> (
    ChildProcess, UInt16
) {
    let vigil = try #require(ChildProcess.vigil, "build the vigil product first (swift build)")
    let child = try ChildProcess(
        vigil, globals + ["serve", "--listen", "127.0.0.1:0"] + serveArguments, directory: scratch.path)
    var port: UInt16?
    let found = eventually(timeout: 30) {
        let text = child.standardError
        guard let range = text.range(of: "http://127.0.0.1:") else { return !child.isRunning }
        port = UInt16(text[range.upperBound...].prefix { $0.isNumber })
        return true
    }
    try #require(found && port != nil, "vigil serve did not start: \(child.standardError)")
    return (child, port!)
}

extension LoopbackClient {
    /// `GET path` as HTTP/1.0 and the body of the response (read to the end), or nil.
    static func get(port: UInt16, _ path: String) -> LoopbackClient.Response? {
        guard let client = try? LoopbackClient(port: port) else { return nil }
        client.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
        return client.readResponse()
    }
}
