import Dispatch
import Testing
import Vigil
import VigilTestSupport

/// The pseudo-terminal that stands in for a GNSS receiver: a writer blocked on a full terminal (nobody reads the
/// slave) is released by a hang-up. It used to stay blocked in `write(2)` for good: closing the master under it left
/// the write holding the terminal, whose slave the object itself kept open, so the replay threads of the location
/// tests never ended.
@Suite(.timeLimit(.minutes(5))) struct PseudoTerminalTests {
    @Test func aHangUpReleasesAWriterBlockedOnAFullTerminal() async throws {
        let terminal = try #require(PseudoTerminal(), "no pseudo-terminal free")
        let ended = DispatchSemaphore(value: 0)
        let outcome = FutexMutex<Bool?>(nil)
        TestThread.detach {
            // Far more than a terminal holds: the writer blocks once the slave's buffer is full.
            let written = terminal.write([UInt8](repeating: 0x24, count: 1 << 20))
            outcome.withLock { $0 = written }
            ended.signal()
        }
        let released = await offThePool { () -> Bool in
            // Blocked, not finished: a megabyte cannot fit.
            guard ended.wait(timeout: .now() + 0.5) == .timedOut else { return false }
            terminal.hangUp()
            return ended.wait(timeout: .now() + 10) == .success
        }
        #expect(released, "the writer is still blocked after the hang-up")
        #expect(outcome.withLock { $0 } == false, "a hung-up terminal reports the write as failed")
        #expect(!terminal.write([1]), "writes after the hang-up fail at once")
    }
}
