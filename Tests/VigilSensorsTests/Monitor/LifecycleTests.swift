import CLinuxSupport
import Glibc
import Testing
import Vigil
import VigilTestSupport

@testable import VigilSensors

/// The package lifecycle every source starts and stops through, and the descriptor-watch driver on it.
@Suite(.timeLimit(.minutes(5))) struct LifecycleTests {
    @Test func concurrentStartsClaimOnce() {
        let lifecycle = Lifecycle()
        let bodies = FutexMutex(0)
        concurrently(32) { _ in
            try? lifecycle.start { (_) throws(SensorError) in
                bodies.withLock { $0 += 1 }
                usleep(2_000)  // a slow start: the other callers arrive while it runs
            }
        }
        #expect(bodies.withLock { $0 } == 1)
        #expect(lifecycle.isRunning)
        lifecycle.stop()
        #expect(!lifecycle.isRunning)
    }

    @Test func aFailedStartReleasesWhatItKeptAndStaysStopped() {
        let lifecycle = Lifecycle()
        let released = FutexMutex<[String]>([])
        #expect(throws: SensorError.self) {
            try lifecycle.start { (generation) throws(SensorError) in
                lifecycle.keep(generation) { released.withLock { $0.append("first") } }
                lifecycle.keep(generation) { released.withLock { $0.append("second") } }
                throw .invalidArgument(name: "test", value: "1", reason: "refused")
            }
        }
        #expect(released.withLock { $0 } == ["second", "first"])
        #expect(!lifecycle.isRunning)
    }

    @Test func whatAnEndedRunKeepsIsReleasedAtOnce() throws {
        let lifecycle = Lifecycle()
        var first: UInt64 = 0
        try lifecycle.start { (generation) throws(SensorError) in first = generation }
        lifecycle.stop()
        try lifecycle.start { (_) throws(SensorError) in }
        let released = FutexMutex(false)
        #expect(!lifecycle.keep(first) { released.withLock { $0 = true } })
        #expect(released.withLock { $0 })
        #expect(!lifecycle.isCurrent(first))
        #expect(lifecycle.isRunning)
    }

    @Test func restartReleasesTheRunButKeepsRunning() throws {
        let lifecycle = Lifecycle()
        var first: UInt64 = 0
        let released = FutexMutex(0)
        try lifecycle.start { (generation) throws(SensorError) in
            first = generation
            lifecycle.keep(generation) { released.withLock { $0 += 1 } }
        }
        let next = try #require(lifecycle.restart(first))
        #expect(released.withLock { $0 } == 1)
        #expect(lifecycle.isCurrent(next) && !lifecycle.isCurrent(first))
        #expect(lifecycle.restart(first) == nil)
        lifecycle.stop()
        #expect(released.withLock { $0 } == 1)
    }

    /// Many threads start a descriptor-watching run at once: one descriptor is opened and watched, and the stop
    /// unregisters and closes it.
    @Test func concurrentStartsOfADescriptorWatchOpenOneDescriptorAndStopClosesIt() throws {
        let loop = EventLoop()
        defer { loop.shutdown() }
        let lifecycle = Lifecycle()
        let opened = FutexMutex<[Int32]>([])
        let closed = FutexMutex(0)
        let woken = FutexMutex(0)
        concurrently(32) { _ in
            try? lifecycle.start { (generation) throws(SensorError) in
                let fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
                opened.withLock { $0.append(fd) }
                try lifecycle.watch(
                    fd,
                    closing: {
                        closed.withLock { $0 += 1 }
                        close(fd)
                    }, on: loop, interest: .readable, generation: generation
                ) { _ in
                    var count: UInt64 = 0
                    _ = read(fd, &count, 8)
                    woken.withLock { $0 += 1 }
                }
            }
        }
        let fds = opened.withLock { $0 }
        #expect(fds.count == 1)
        let fd = try #require(fds.first)
        var one: UInt64 = 1
        #expect(write(fd, &one, 8) == 8)
        _ = eventually(timeout: 10) { woken.withLock { $0 } != 0 }
        #expect(woken.withLock { $0 } == 1)
        lifecycle.stop()
        // The stop ran the closing closure once, which closed the descriptor. Its number is not probed afterwards:
        // other suites open descriptors at the same time, and the kernel hands the freed number to the next one.
        #expect(closed.withLock { $0 } == 1, "the watched descriptor was not closed by stop")
    }
}
