import Dispatch
import Glibc
import Synchronization
import Testing
import VigilTestSupport

/// The test client closes its socket exactly once, even when the connect is refused.
///
/// It once closed the socket before throwing and again in `deinit` (which Swift runs for a class whose initializer
/// throws after setting every property). Between the two, another thread's `open` could get the same number, so the
/// second close took that thread's descriptor: CI saw a sensor's `read` fail with `EBADF` under ThreadSanitizer
/// while a server test polled a port that was not listening yet.
///
/// Not under a sanitizer: what it catches is no data race nor memory error, and the plain run (CI's first) catches it
/// every time; under ThreadSanitizer, a thread opening and closing descriptors without pause stalled the whole test
/// process for two minutes (every queued suite then passed its time limit), even when bounded to 2 s of connects.
@Suite(
    .timeLimit(.minutes(5)),
    .disabled(
        if: runsUnderThreadSanitizer || runsUnderAddressSanitizer,
        "a descriptor-stealing race; the plain run checks it, sanitizers stall on its busy threads"))
struct LoopbackClientTests {
    @Test func aRefusedConnectionClosesNoOtherThreadsDescriptor() async throws {
        // Kept bound: a port let go could be taken by another suite's server, or by a connect's own ephemeral port.
        let reserved = try ReservedLoopbackPort()
        let port = reserved.port
        // Off the concurrency pool, and for 2 s at most: the bystander and the connects keep both CPUs of a CI machine
        // busy, and under ThreadSanitizer 20,000 connects took two minutes, in which no other suite ran.
        let (stolen, unrefused) = await offThePool { () -> (Int, Int) in
            let done = Atomic<Bool>(false)
            let stolen = Atomic<Int>(0)
            let bystander = DispatchSemaphore(value: 0)
            // A bystander thread opens, checks and closes a descriptor of its own as fast as it can.
            TestThread.detach {
                defer { bystander.signal() }
                while !done.load(ordering: .relaxed) {
                    let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
                    guard fd >= 0 else { continue }
                    if fcntl(fd, F_GETFD) == -1 || close(fd) != 0 { stolen.add(1, ordering: .relaxed) }
                }
            }
            var unrefused = 0
            let deadline = ContinuousClock.now + .seconds(2)
            for _ in 0..<20_000 where stolen.load(ordering: .relaxed) == 0 && ContinuousClock.now < deadline {
                if (try? LoopbackClient(port: port)) != nil { unrefused += 1 }
            }
            done.store(true, ordering: .relaxed)
            bystander.wait()
            return (stolen.load(ordering: .relaxed), unrefused)
        }
        #expect(unrefused == 0, "nobody listens on the port")
        #expect(stolen == 0, "a refused client closed the bystander's descriptor")
        withExtendedLifetime(reserved) {}
    }
}
