import Glibc
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

    /// The child exits, but a process it left behind holds its output open: the issue says so.
    @Test func anOutputHeldOpenAfterTheExitIsReported() async throws {
        let child = try ChildProcess(try #require(ChildProcess.installed("sh")), ["-c", "sleep 300 & echo $!; exit 0"])
        let printed = await eventually { child.standardOutput.hasSuffix("\n") }
        let orphan = try #require(printed ? pid_t(child.standardOutput.dropLast()) : nil, "\(child.standardOutput)")
        defer { kill(orphan, SIGKILL) }
        await withKnownIssue {
            #expect(await child.waitForExit(within: 0.5) == false)
        } matching: { issue in
            "\(issue)".contains("pid \(child.pid) exited with status 0, but its standard output or error was still")
        }
    }

    @Test func aHangCanBeExpected() async throws {
        let child = try ChildProcess(try #require(ChildProcess.installed("sleep")), ["300"])
        defer { child.signal(SIGKILL) }
        #expect(await child.waitForExit(within: 0.2, reportingAHang: false) == false)
    }
}
