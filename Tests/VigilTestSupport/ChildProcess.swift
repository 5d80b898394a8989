import Foundation
import Glibc
import Testing
import Vigil

/// A program a test runs (`vigil`, `mosquitto`, `prometheus`, `promtool`, `tmux` clients), with standard output and
/// error collected as they arrive and a kill on release, so a failing test leaves no process behind.
///
/// Spawned with `posix_spawn(2)` rather than Foundation's `Process`, whose objects LeakSanitizer reports. Each pipe is
/// read on a thread of its own (``TestThread``), never on the concurrency pool.
package final class ChildProcess: Sendable {
    /// The built `vigil` (see ``builtVigil``).
    package static var vigil: String? { builtVigil }

    /// The first of `candidates` that is an executable file.
    package static func find(_ candidates: String...) -> String? { candidates.first { access($0, X_OK) == 0 } }

    /// The path of `name` in `/usr/bin`, `/usr/local/bin`, `/bin` or `/usr/sbin`, or nil.
    package static func installed(_ name: String) -> String? {
        ["/usr/bin", "/usr/local/bin", "/bin", "/usr/sbin"].map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }

    /// The child's process id, for `/proc/PID/…`.
    package let pid: pid_t
    private let status = FutexMutex<Int32?>(nil)
    private let output = Collected()
    private let errors = Collected()

    /// Text collected from one pipe; a class of its own so the reading threads do not keep the process alive.
    private final class Collected: Sendable {
        private let state = FutexMutex<(text: String, ended: Bool)>(("", false))
        var text: String { state.withLock { $0.text } }
        var ended: Bool { state.withLock { $0.ended } }
        func append(_ bytes: ArraySlice<UInt8>) { state.withLock { $0.text += String(decoding: bytes, as: UTF8.self) } }
        func end() { state.withLock { $0.ended = true } }
    }

    /// Starts `path` with `arguments`.
    ///
    /// The spawning thread may block or ignore signals (Dispatch and the test runner's threads do), and a child
    /// inherits that: the mask and the stop signals are reset so SIGTERM and SIGINT stop it.
    ///
    /// - Parameters:
    ///   - wrapper: A command to run `path` through, such as `setpriv …`.
    ///   - standardInput: A file to read as standard input; `/dev/null` by default.
    ///   - standardOutput: A descriptor to give the child as its standard output (`/dev/full`, a pipe nobody reads)
    ///     instead of a pipe read into ``standardOutput``.
    ///   - standardError: The same for standard error and ``standardError``.
    ///   - environment: Variables to set beside `PATH` and the sanitizers' options.
    package init(
        _ path: String, _ arguments: [String], wrapper: [String] = [], standardInput: String = "/dev/null",
        standardOutput: Int32? = nil, standardError: Int32? = nil, environment extra: [String: String] = [:]
    ) throws {
        let command = wrapper + [path] + arguments
        // Close-on-exec from their creation (see closeOnExecPipe()): a child that inherited the write ends held this
        // child's output open after it exited, and this child looked hung.
        let outputEnds = try #require(closeOnExecPipe(), "pipe2: errno \(errno)")
        let errorEnds = try #require(closeOnExecPipe(), "pipe2: errno \(errno)")
        let outputPipe = [outputEnds.read, outputEnds.write]
        let errorPipe = [errorEnds.read, errorEnds.write]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, standardInput, O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, standardOutput ?? outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, standardError ?? errorPipe[1], 2)
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
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        // The sanitizers' options pass on, so that an instrumented `vigil` reads the same LeakSanitizer
        // suppressions as the test process (Swift's weak-reference side tables, see .ci/lsan-suppressions.txt).
        let sanitizerOptions = ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS"].compactMap { (name: String) in
            getenv(name).map { (value: UnsafeMutablePointer<CChar>) in name + "=" + String(cString: value) }
        }
        let environment: [UnsafeMutablePointer<CChar>?] =
            (["PATH=/usr/bin:/bin:/usr/sbin"] + sanitizerOptions + extra.map { "\($0.key)=\($0.value)" }).map {
                strdup($0)
            } + [nil]
        defer { for pointer in argv + environment { free(pointer) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, command[0], &actions, &attributes, argv, environment)
        close(outputPipe[1])
        close(errorPipe[1])
        pid = child
        try #require(spawned == 0, "posix_spawn \(command[0]) failed: \(spawned)")
        if standardOutput == nil {
            Self.collect(outputPipe[0], into: output)
        } else {
            close(outputPipe[0])
            output.end()
        }
        if standardError == nil {
            Self.collect(errorPipe[0], into: errors)
        } else {
            close(errorPipe[0])
            errors.end()
        }
    }

    /// Starts the built `vigil` with `arguments`; see ``init(_:_:wrapper:standardInput:standardOutput:)``.
    package convenience init(
        vigil arguments: [String], wrapper: [String] = [], standardOutput: Int32? = nil, standardError: Int32? = nil,
        environment: [String: String] = [:]
    ) throws {
        let vigil = try #require(Self.vigil, "build the vigil product first (swift build)")
        try self.init(
            vigil, arguments, wrapper: wrapper, standardOutput: standardOutput, standardError: standardError,
            environment: environment)
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            var raw: Int32 = 0
            waitpid(pid, &raw, 0)
        }
    }

    /// What the child wrote to standard output so far.
    package var standardOutput: String { output.text }
    /// Whether standard output was read to its end (every holder of the pipe's write end closed it).
    package var standardOutputEnded: Bool { output.ended }
    /// What the child wrote to standard error so far.
    package var standardError: String { errors.text }

    /// Whether the child still runs; reaps it (`waitpid(2)`) once it has exited.
    package var isRunning: Bool {
        status.withLock { status in
            guard status == nil else { return false }
            var raw: Int32 = 0
            guard waitpid(pid, &raw, WNOHANG) == pid else { return true }
            // WIFEXITED: exit status in bits 8-15; otherwise report 128 + signal number, as shells do.
            status = (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
            return false
        }
    }

    /// The exit status once ``isRunning`` is false (128 + N after signal N), else -1.
    package var exitStatus: Int32 { status.withLock { $0 ?? -1 } }

    /// Sends signal `number`.
    package func signal(_ number: Int32) { kill(pid, number) }

    /// Waits (`seconds` at most) for the child to exit and its output to be read to the end; returns whether it did.
    ///
    /// The default bound catches a hang, not a slow exit: under a sanitizer on a loaded two-core CI machine a child
    /// that takes a fraction of a second alone was seen to need more than 15 s.
    ///
    /// A child still running at the bound is a hang: unless `reportingAHang` is false, the test gets an issue that
    /// says what each of the child's threads was doing (``threadReport()``), for a hang seen once on CI; a child that
    /// exited while its output stayed open gets an issue saying so.
    package func waitForExit(within seconds: Double = 60, reportingAHang: Bool = true) async -> Bool {
        let ended = await eventually(within: seconds) { !self.isRunning && self.output.ended && self.errors.ended }
        guard !ended, reportingAHang else { return ended }
        if isRunning {
            Issue.record("pid \(pid) did not exit within \(seconds) s; its threads:\n\(await threadReport())")
        } else {
            let held = "its standard output or error was still open \(seconds) s later"
            let reason = "another process holds the write end"
            Issue.record("pid \(pid) exited with status \(exitStatus), but \(held): \(reason)")
        }
        return ended
    }

    /// Sends `number` (SIGTERM by default) and waits (`seconds` at most) for the exit; returns the exit status, or
    /// nil when the child did not exit in time (see ``waitForExit(within:reportingAHang:)``).
    @discardableResult
    package func stop(with number: Int32 = SIGTERM, within seconds: Double = 60, reportingAHang: Bool = true) async
        -> Int32?
    {
        if isRunning { signal(number) }
        return await waitForExit(within: seconds, reportingAHang: reportingAHang) ? exitStatus : nil
    }

    /// What each thread of the running child is doing: its name, state and kernel wait channel from `/proc`, then,
    /// where gdb is installed, every thread's stack.
    package func threadReport() async -> String {
        let tasks = "/proc/\(pid)/task"
        var lines: [String] = []
        for task in ((try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []).sorted() {
            func read(_ name: String) -> String {
                ((try? String(contentsOfFile: "\(tasks)/\(task)/\(name)", encoding: .utf8)) ?? "?")
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            // stat: "tid (comm) state …"; the name may hold spaces and parentheses, the state follows the last ')'.
            let stat = read("stat")
            let state = stat.lastIndex(of: ")").map { stat[stat.index($0, offsetBy: 2)...].prefix(1) } ?? "?"
            lines.append("\(task) \(read("comm")) state \(state) wchan \(read("wchan")) syscall \(read("syscall"))")
        }
        guard let gdb = Self.installed("gdb"),
            let stacks = try? ChildProcess(gdb, ["-p", "\(pid)", "-batch", "-ex", "thread apply all bt 30"])
        else { return lines.joined(separator: "\n") + "\n(no stacks: gdb is not installed)" }
        _ = await stacks.waitForExit(within: 60, reportingAHang: false)
        if stacks.isRunning { stacks.signal(SIGKILL) }
        return lines.joined(separator: "\n") + "\n" + stacks.standardOutput + stacks.standardError
    }

    /// User plus system CPU time so far, in seconds; nil once the child is gone.
    package var cpuSeconds: Double? { ProcessProbe.cpuSeconds(of: pid) }

    private static func collect(_ fd: Int32, into collected: Collected) {
        TestThread.detach {
            var chunk = [UInt8](repeating: 0, count: 8192)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                collected.append(chunk[..<count])
            }
            close(fd)
            collected.end()
        }
    }
}
