import Dispatch
import Foundation
import Glibc
import Synchronization
import Testing

/// The built `vigil` executable, run as a child process with its output collected.
final class VigilProcess: Sendable {
    /// Finds `vigil` next to the test bundle, searching upward from the test executable (the build directory
    /// differs between `swift test` and `swift test --sanitize=thread`).
    static let executable: String? = {
        guard let testExecutable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return nil
        }
        var directory = URL(fileURLWithPath: testExecutable).deletingLastPathComponent()
        while directory.path != "/" {
            for candidate in ["vigil", "debug/vigil"] {
                let path = directory.appendingPathComponent(candidate).path
                if FileManager.default.isExecutableFile(atPath: path) { return path }
            }
            directory.deleteLastPathComponent()
        }
        return nil
    }()

    /// Text collected from a pipe as it arrives.
    final class TextBuffer: Sendable {
        private let text = Mutex<(value: String, ended: Bool)>(("", false))
        var value: String { text.withLock { $0.value } }
        /// Whether the pipe reached end of file (the writer closed it).
        var ended: Bool { text.withLock { $0.ended } }

        func append(_ data: Data) {
            text.withLock { text in
                if data.isEmpty { text.ended = true } else { text.value += String(decoding: data, as: UTF8.self) }
            }
        }
    }

    private let process: Process
    private let output = TextBuffer()
    private let errors = TextBuffer()

    /// Starts `vigil` with `arguments`, optionally through a wrapper command such as `setpriv …`.
    init(_ arguments: [String], wrapper: [String] = []) throws {
        let executable = try #require(Self.executable, "build the vigil product first (swift build)")
        process = Process()
        process.executableURL = URL(fileURLWithPath: wrapper.first ?? executable)
        process.arguments = wrapper.isEmpty ? arguments : Array(wrapper.dropFirst()) + [executable] + arguments
        for (pipe, buffer) in [(Pipe(), output), (Pipe(), errors)] {
            if buffer === output { process.standardOutput = pipe } else { process.standardError = pipe }
            // A plain blocking read on a queue thread (FileHandle's readabilityHandler leaks under LeakSanitizer).
            DispatchQueue.global().async { [pipe] in
                let fd = pipe.fileHandleForReading.fileDescriptor
                var chunk = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { break }
                    buffer.append(Data(chunk[0..<count]))
                }
                buffer.append(Data())
            }
        }
        try process.run()
    }

    var standardOutput: String { output.value }
    var standardError: String { errors.value }
    var isRunning: Bool { process.isRunning }
    var exitStatus: Int32 { process.terminationStatus }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits (10 s at most) for the process to exit and its output to be read to the end; returns whether it did.
    func waitForExit() async -> Bool { await eventually { !self.isRunning && self.output.ended && self.errors.ended } }
}
