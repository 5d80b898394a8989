import Foundation
import Testing
import VigilTestSupport

/// `vigil get`, `watch` and `top` on a GNSS receiver: a pseudo-terminal behind a fake `class/gnss` that replays a real
/// receiver's log (u-blox LEA-4H, from gpsd: no fix at first, then a fix).
@Suite(.timeLimit(.minutes(5))) struct VigilLocationCommandTests {
    /// A fake sysfs and dev with the replaying receiver of the fake machines (``FakeGNSSReceiver``).
    final class Receiver {
        let sys = FakeSysfsTree()
        let dev = FakeSysfsTree()
        private var receiver: FakeGNSSReceiver?

        init() throws {
            let made: FakeGNSSReceiver = try #require(FakeGNSSReceiver(sys: sys, dev: dev), "no pseudo-terminal free")
            receiver = made
        }

        var globals: [String] { ["--sys-root", sys.root, "--dev-root", dev.root] }
    }

    /// `get` answers with the first decoded epoch (here, before the fix: none yet, and how many satellites), not
    /// with "opened, nothing decoded yet".
    @Test func getAnswersWithTheFirstDecodedEpoch() async throws {
        let receiver = try Receiver()
        let get = try ChildProcess(vigil: receiver.globals + ["get", "location"])
        #expect(await get.waitForExit())
        #expect(get.exitStatus == 0, "\(get.standardError)")
        #expect(get.standardOutput == "location: no fix, 3 satellites in view\n")
        // Released after its last use, the receiver would hang its line up under vigil (Swift ends lifetimes early).
        withExtendedLifetime(receiver) {}
    }

    /// A fix's own UTC time is `fixTime` in JSON: the envelope's `time` is when the reading was published.
    @Test func jsonCarriesTheFixTimeBesideTheReadingTime() async throws {
        let receiver = try Receiver()
        let watch = try ChildProcess(vigil: receiver.globals + ["watch", "location", "--json"])
        let fixed = await eventually(within: 30) { watch.standardOutput.contains(#""latitude""#) }
        #expect(fixed, "\(watch.standardOutput.suffix(2000))\n\(watch.standardError)")
        await watch.stop()
        let fix = try #require(
            try VigilOutput.objects(watch.standardOutput).first { $0["latitude"] != nil }, "\(watch.standardOutput)")
        #expect((fix["fixTime"] as? String)?.hasPrefix("2006-08-10T03:") == true, "\(fix)")
        #expect((fix["time"] as? String)?.hasPrefix("2006") == false, "\(fix)")
        #expect(fix["mode"] as? String != "waiting")
        withExtendedLifetime(receiver) {}
    }

    /// `vigil top` shows the fix on the location's row, as its text (a fix has no one number to plot).
    @Test(.enabled(if: TmuxSession.executable != nil, "tmux is not installed (.ci/setup installs it)"))
    func topShowsTheFix() async throws {
        // Tall enough for every source of the fully equipped machine.
        let top = try await TopCommandTests.Fixture(machine: .fullyEquipped(), width: 120, height: 60)
        await top.expectScreen { screen in
            screen.split(separator: "\n").contains { $0.contains("location") && $0.contains("° N 122.") }
        }
        await top.quit()
    }
}
