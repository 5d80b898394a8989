import Dispatch
import Foundation
import Glibc
import Synchronization
import Testing
import Vigil
import VigilTestSupport

/// A program the tests run (`vigil`, `mosquitto`, `mosquitto_sub`), with standard output and error collected as they
/// arrive and a kill on release, so a failing test leaves no process behind.
final class ChildProcess: Sendable {
    /// The built `vigil` (see `builtVigil`).
    static var vigil: String? { builtVigil }

    /// The first of `candidates` that is an executable file.
    static func find(_ candidates: String...) -> String? { candidates.first { access($0, X_OK) == 0 } }

    let pid: pid_t
    private let exit = FutexMutex<Int32?>(nil)
    private let streams = Streams()

    /// What the pipes delivered; a class of its own so the reading threads do not keep the process object alive.
    private final class Streams: Sendable {
        let state = FutexMutex<(output: String, errors: String, open: Int)>(("", "", 2))
        func withLock<T: Sendable>(_ body: (inout (output: String, errors: String, open: Int)) -> T) -> T {
            state.withLock { body(&$0) }
        }
    }

    /// Starts `path` with `arguments`.
    init(_ path: String, _ arguments: [String]) throws {
        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        let piped = pipe(&outputPipe) == 0 && pipe(&errorPipe) == 0
        try #require(piped)
        for fd in outputPipe + errorPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (writeEnd, target) in [(outputPipe[1], Int32(1)), (errorPipe[1], 2)] {
            posix_spawn_file_actions_adddup2(&actions, writeEnd, target)
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        let environment: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/usr/bin:/bin:/usr/sbin"), nil]
        defer { for pointer in argv + environment { free(pointer) } }
        // The spawning thread may block or ignore signals (Dispatch and the test runner's threads do), and a child
        // inherits that: reset the mask and the stop signals so SIGTERM stops it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        for number in [SIGTERM, SIGINT, SIGPIPE] { sigaddset(&stopSignals, number) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &stopSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var child: pid_t = 0
        let result = posix_spawn(&child, path, &actions, &attributes, argv, environment)
        close(outputPipe[1])
        close(errorPipe[1])
        pid = child
        try #require(result == 0, "cannot start \(path): error \(result)")
        collect(outputPipe[0], isOutput: true)
        collect(errorPipe[0], isOutput: false)
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }

    var output: String { streams.withLock { $0.output } }
    var errors: String { streams.withLock { $0.errors } }

    /// Whether the process still runs; reaps it once it has exited.
    var isRunning: Bool {
        exit.withLock { exit in
            guard exit == nil else { return false }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return true }
            exit = status
            return false
        }
    }

    func signal(_ number: Int32) { kill(pid, number) }

    /// Sends `number` and waits (10 s at most) until the process has exited and its pipes are read to the end.
    @discardableResult
    func stop(with number: Int32 = SIGTERM) async -> Bool {
        signal(number)
        return await waitForExit()
    }

    /// Waits (15 s at most) until the process has exited and its pipes are read to the end.
    func waitForExit() async -> Bool {
        await waitUntil { !self.isRunning && self.streams.withLock { $0.open == 0 } }
    }

    /// User plus system CPU time so far, in seconds (`/proc/PID/stat` fields 14 and 15).
    func cpuSeconds() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name, which may hold spaces: field 3 (state) is the first.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    private func collect(_ fd: Int32, isOutput: Bool) {
        TestThread.detach { [streams] in
            var chunk = [UInt8](repeating: 0, count: 8192)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                let text = String(decoding: chunk[..<count], as: UTF8.self)
                streams.withLock { if isOutput { $0.output += text } else { $0.errors += text } }
            }
            close(fd)
            streams.withLock { $0.open -= 1 }
        }
    }
}

/// Checks `condition` every 10 ms until it holds or `seconds` pass; returns whether it held.
func waitUntil(seconds: Double = 15, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    repeat {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    } while ContinuousClock.now < deadline
    return condition()
}
