import Testing
import Vigil
import VigilTestSupport

/// Children started at once from many threads inherit none of each other's pipes: a pipe's write end that leaked into
/// a child started at the same moment kept the first child's output open after it exited, for as long as the other
/// one ran, and the first one looked hung.
@Suite(.timeLimit(.minutes(2))) struct ChildProcessPipeTests {
    /// What one child said of itself: the pipes of its standard output and error, and the pipes it holds beyond them.
    struct Holdings: Sendable {
        var own: Set<Substring> = []
        var others: Set<Substring> = []
    }

    @Test func childrenStartedTogetherInheritNoPipeOfAnother() async throws {
        let shell = try #require(ChildProcess.installed("sh"))
        // The first line names the child's own two pipes; the rest, what it holds beyond 0, 1 and 2.
        let script = #"""
            echo $(readlink /proc/$$/fd/1) $(readlink /proc/$$/fd/2)
            for f in /proc/$$/fd/*; do [ "${f##*/}" -gt 2 ] && readlink "$f"; done; true
            """#
        let holdings = await offThePool { () -> [Holdings] in
            let found = FutexMutex<[Holdings]>([])
            concurrently(8) { _ in
                for _ in 0..<60 {
                    guard let child = try? ChildProcess(shell, ["-c", script]) else { continue }
                    _ = eventually(timeout: 30) { !child.isRunning && child.standardOutputEnded }
                    let lines = child.standardOutput.split(separator: "\n")
                    var held = Holdings()
                    held.own = Set(lines.first?.split(separator: " ") ?? [])
                    held.others = Set(lines.dropFirst().filter { $0.starts(with: "pipe:") })
                    found.withLock { $0.append(held) }
                }
            }
            return found.withLock { $0 }
        }
        #expect(holdings.count == 8 * 60)
        // Another process's pipes (the test runner's, a library's) may be inherited; another child's must not.
        let childrensPipes = holdings.reduce(into: Set<Substring>()) { $0.formUnion($1.own) }
        let leaks = holdings.filter { !$0.others.isDisjoint(with: childrensPipes) }.map(\.others)
        #expect(leaks.isEmpty, "\(leaks.count) children held another child's pipe: \(leaks.prefix(5))")
    }
}
