import Foundation
import Glibc
import Synchronization
import Testing
import VigilTestSupport

/// A child that does not exit in time fails the test with what its threads were doing, so a hang seen once on CI
/// can be read from the log.
@Suite(.timeLimit(.minutes(2))) struct ChildProcessHangReportTests {
    @Test func aChildThatDoesNotExitIsReportedWithItsThreads() async throws {
        let child = try ChildProcess(try #require(ChildProcess.installed("sleep")), ["300"])
        defer { child.signal(SIGKILL) }
        await withKnownIssue {
            #expect(await child.waitForExit(within: 0.2) == false)
        } matching: { issue in
            let text = "\(issue)"
            return text.contains("pid \(child.pid) did not exit within 0.2 s") && text.contains(" sleep state S ")
        }
    }

    @Test func aHangCanBeExpected() async throws {
        let child = try ChildProcess(try #require(ChildProcess.installed("sleep")), ["300"])
        defer { child.signal(SIGKILL) }
        #expect(await child.waitForExit(within: 0.2, reportingAHang: false) == false)
    }
}

/// Children started at once from many threads inherit none of each other's pipes: a pipe's write end that leaked into
/// a child started at the same moment kept the first child's output open after it exited, for as long as the other
/// one ran, and the first one looked hung.
@Suite(.timeLimit(.minutes(2))) struct ChildProcessPipeTests {
    @Test func childrenStartedTogetherInheritNoPipeOfAnother() async throws {
        let shell = try #require(ChildProcess.installed("sh"))
        // Pipes this process was given open by whatever started it: every child inherits them, not a test's doing.
        let inherited = Self.pipesLeftOpenOnExec()
        let leaks = await offThePool { () -> [String] in
            let found = Mutex<[String]>([])
            concurrently(8) { _ in
                for _ in 0..<60 {
                    // What the child holds beyond 0, 1 and 2: a pipe there is another child's (the other tests of
                    // the process make every pipe close-on-exec too; their other descriptors are not counted).
                    let script = #"for f in /proc/$$/fd/*; do [ "${f##*/}" -gt 2 ] && readlink "$f"; done; true"#
                    guard let child = try? ChildProcess(shell, ["-c", script]) else { continue }
                    let deadline = ContinuousClock.now + .seconds(30)
                    while (child.isRunning || !child.standardOutputEnded) && ContinuousClock.now < deadline {
                        usleep(1_000)
                    }
                    let pipes = child.standardOutput.split(separator: "\n").filter {
                        $0.starts(with: "pipe:") && !inherited.contains(String($0))
                    }
                    if !pipes.isEmpty { found.withLock { $0.append(pipes.joined(separator: " ")) } }
                }
            }
            return found.withLock { $0 }
        }
        #expect(leaks.isEmpty, "\(leaks.count) children held another's pipe: \(leaks.prefix(5))")
    }

    /// This process's pipes without close-on-exec (`pipe:[inode]`), read from `/proc/self/fd` and `fdinfo`.
    static func pipesLeftOpenOnExec() -> Set<String> {
        var pipes: Set<String> = []
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + entry),
                target.hasPrefix("pipe:"),
                let info = try? String(contentsOfFile: "/proc/self/fdinfo/" + entry, encoding: .utf8),
                let flags = info.split(separator: "\n").first(where: { $0.hasPrefix("flags:") })
                    .flatMap({ Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) }),
                flags & Int(O_CLOEXEC) == 0
            else { continue }
            pipes.insert(target)
        }
        return pipes
    }
}
