import Glibc
import Testing
import VigilTestSupport

/// A stop signal is never lost, whenever it arrives.
///
/// The commands used to turn SIGTERM's default action off (`SIG_IGN`) and then make a Dispatch signal source, which
/// Dispatch registers a moment later on a thread of its own: a SIGTERM sent in between was discarded and the command
/// ran on (CI saw `vigil serve --textfile` ignore one). The signal sent the moment the command says it runs lands in
/// that window: on the old code some of these rounds never ended.
@Suite(.timeLimit(.minutes(5)))
struct StopSignalTests {
    static let rounds = 25

    @Test(arguments: ["watch", "serve"])
    func aSignalSentAsTheCommandSaysItRunsEndsItWithItsStatus(command: String) async throws {
        let scratch = TemporaryDirectory("vigil-signals")
        let arguments =
            command == "watch"
            ? ["watch", "memory"]
            : ["serve", "memory", "--textfile", scratch.path + "/vigil.prom", "--interval", "1s"]
        var lost = 0
        for round in 0..<Self.rounds {
            let (number, status) = round.isMultiple(of: 2) ? (SIGTERM, Int32(143)) : (SIGINT, Int32(130))
            let child = try ChildProcess(vigil: arguments)
            // Spinning, not polling: the signal must follow the announcement as closely as a user's Ctrl-C could.
            let announced = await offThePool { () -> Bool in
                let deadline = ContinuousClock.now + .seconds(20)
                while !child.standardError.contains("Ctrl-C to stop") {
                    guard ContinuousClock.now < deadline, child.isRunning else { return false }
                }
                return true
            }
            try #require(announced, "vigil \(arguments.joined(separator: " ")) did not start: \(child.standardError)")
            child.signal(number)
            let ended = await child.waitForExit(within: 10)
            if !ended { lost += 1 }
            #expect(!ended || child.exitStatus == status, "round \(round): \(child.standardError)")
        }
        #expect(lost == 0, "\(lost) of \(Self.rounds) signals were lost: the command ran on")
    }
}
