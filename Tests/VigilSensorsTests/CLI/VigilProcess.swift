import Dispatch
import Foundation
import Glibc
import Synchronization
import Testing
import Vigil
import VigilTestSupport

/// The built `vigil` executable, run as a child process with its output collected.
final class VigilProcess: Sendable {
    /// The built `vigil` (see `builtVigil`).
    static var executable: String? { builtVigil }

    /// Text collected from a pipe as it arrives.
    final class TextBuffer: Sendable {
        private let text = FutexMutex<(value: String, ended: Bool)>(("", false))
        var value: String { text.withLock { $0.value } }
        /// Whether the pipe reached end of file (the writer closed it).
        var ended: Bool { text.withLock { $0.ended } }

        func append(_ data: Data) {
            text.withLock { text in
                if data.isEmpty { text.ended = true } else { text.value += String(decoding: data, as: UTF8.self) }
            }
        }
    }

    /// The child's process id, for `/proc/PID/…`.
    let pid: pid_t
    private let status = FutexMutex<Int32?>(nil)
    private let output = TextBuffer()
    private let errors = TextBuffer()

    /// Starts `vigil` with `arguments`, optionally through a wrapper command such as `setpriv …`.
    ///
    /// Spawned with `posix_spawn(2)` rather than Foundation's `Process`, whose objects LeakSanitizer reports.
    ///
    /// - Parameter standardOutput: A descriptor to give the child as its standard output (`/dev/full`, a pipe nobody
    ///   reads) instead of a pipe read into ``standardOutput``.
    init(_ arguments: [String], wrapper: [String] = [], standardOutput: Int32? = nil) throws {
        let executable = try #require(Self.executable, "build the vigil product first (swift build)")
        let command = wrapper.isEmpty ? [executable] + arguments : wrapper + [executable] + arguments
        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        try #require(pipe(&outputPipe) == 0 && pipe(&errorPipe) == 0)
        for fd in outputPipe + errorPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, standardOutput ?? outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        let environment: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/usr/bin:/bin"), nil]
        defer { for pointer in argv + environment { free(pointer) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, command[0], &actions, nil, argv, environment)
        close(outputPipe[1])
        close(errorPipe[1])
        pid = child
        try #require(spawned == 0, "posix_spawn \(command[0]) failed: \(spawned)")
        if standardOutput != nil {
            close(outputPipe[0])
            output.append(Data())
        }
        let readers =
            standardOutput == nil ? [(outputPipe[0], output), (errorPipe[0], errors)] : [(errorPipe[0], errors)]
        for (fd, buffer) in readers {
            TestThread.detach {
                var chunk = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { break }
                    buffer.append(Data(chunk[0..<count]))
                }
                close(fd)
                buffer.append(Data())
            }
        }
    }

    var standardOutput: String { output.value }
    var standardError: String { errors.value }

    /// Whether the child still runs; reaps it (`waitpid(2)`) once it has exited.
    var isRunning: Bool {
        status.withLock { status in
            guard status == nil else { return false }
            var raw: Int32 = 0
            guard waitpid(pid, &raw, WNOHANG) == pid else { return true }
            // WIFEXITED: exit status in bits 8-15; otherwise report 128 + signal number, as shells do.
            status = (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
            return false
        }
    }

    /// The exit status once ``isRunning`` is false, else -1.
    var exitStatus: Int32 { status.withLock { $0 ?? -1 } }

    func signal(_ number: Int32) { kill(pid, number) }

    /// Waits (10 s at most) for the process to exit and its output to be read to the end; returns whether it did.
    func waitForExit() async -> Bool { await eventually { !self.isRunning && self.output.ended && self.errors.ended } }
}
