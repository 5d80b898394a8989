import Foundation
import Glibc
import Testing
import VigilTestSupport

/// `vigil get sleep` end to end: a fake machine's suspend statistics as JSON and as a line, and the kernel's clocks
/// read inside a time namespace whose boot-time clock is an hour ahead.
@Suite(.timeLimit(.minutes(5))) struct SleepCommandTests {
    @Test func getSleepPrintsTheStatisticsAsJSON() async throws {
        let machine = FakeMachine.empty()
        machine.addSuspendStatistics()
        let vigil = try ChildProcess(vigil: ["--sys-root", machine.sys.root, "get", "sleep", "--json"])
        #expect(await vigil.waitForExit())
        #expect(vigil.exitStatus == 0, "\(vigil.standardError)")
        let object = try #require(try VigilOutput.objects(vigil.standardOutput).first)
        #expect(object["source"] as? String == "sleep" && object["status"] as? String == "ok")
        #expect((object["suspendedSeconds"] as? Double).map { $0 >= 0 } == true)
        #expect(object["wakes"] as? Int == 0 && object["lastWake"] == nil)
        let statistics = try #require(object["statistics"] as? [String: Any])
        #expect(statistics["successes"] as? Int == 12 && statistics["failures"] as? Int == 1)
        let failure = try #require(statistics["lastFailure"] as? [String: Any])
        #expect(failure["device"] as? String == "alarm" && failure["errnoName"] as? String == "EBUSY")
        #expect(failure["step"] as? String == "freeze" && failure["errno"] as? Int == 16)
    }

    @Test func getSleepPrintsOneLine() async throws {
        let machine = FakeMachine.empty()
        let vigil = try ChildProcess(vigil: ["--sys-root", machine.sys.root, "get", "sleep"])
        #expect(await vigil.waitForExit())
        #expect(vigil.exitStatus == 0, "\(vigil.standardError)")
        let line = vigil.standardOutput
        #expect(line.hasPrefix("sleep: suspended "), "\(line)")
        #expect(line.hasSuffix(" since boot; no suspend statistics\n"), "\(line)")
    }

    /// Inside `unshare --time --boottime 3600` the boot-time clock is an hour ahead of the monotonic one from the
    /// namespace's first moment: the tool reports an hour more of suspended time than outside, and no wake.
    @Test func aTimeNamespacesBootTimeOffsetIsSuspendedTimeNotAWake() async throws {
        guard getuid() == 0, let unshare = ChildProcess.installed("unshare") else {
            try skip("needs root and unshare(1) for a time namespace", expectedUnderCI: false)
        }
        let probe = try ChildProcess(unshare, ["--time", "--boottime", "3600", "true"])
        #expect(await probe.waitForExit())
        guard probe.exitStatus == 0 else {
            try skip(
                "unshare --time fails here (time namespaces need Linux 5.6): \(probe.standardError)",
                expectedUnderCI: false)
        }
        let machine = FakeMachine.empty()
        let arguments = ["--sys-root", machine.sys.root, "get", "sleep", "--json"]
        let outside = try ChildProcess(vigil: arguments)
        let inside = try ChildProcess(vigil: arguments, wrapper: [unshare, "--time", "--boottime", "3600"])
        #expect(await outside.waitForExit() && outside.exitStatus == 0, "\(outside.standardError)")
        #expect(await inside.waitForExit() && inside.exitStatus == 0, "\(inside.standardError)")
        let host = try #require(try VigilOutput.objects(outside.standardOutput).first)
        let namespaced = try #require(try VigilOutput.objects(inside.standardOutput).first)
        let hostSuspended = try #require(host["suspendedSeconds"] as? Double)
        let namespacedSuspended = try #require(namespaced["suspendedSeconds"] as? Double)
        #expect(
            abs(namespacedSuspended - hostSuspended - 3600) < 0.5,
            "\(hostSuspended) outside, \(namespacedSuspended) inside")
        #expect(namespaced["wakes"] as? Int == 0 && namespaced["lastWake"] == nil, "a spurious wake: \(namespaced)")
    }
}
