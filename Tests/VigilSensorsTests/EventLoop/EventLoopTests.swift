import CLinuxSupport
import Dispatch
import Glibc
import Synchronization
import Testing
import Vigil
import VigilSensors
import VigilTestSupport

@Suite(.serialized, .timeLimit(.minutes(10))) struct EventLoopTests {
    /// Writes 1 to an eventfd.
    private func signal(_ fd: Int32) {
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { write(fd, $0.baseAddress, 8) }
    }

    private func drain(_ fd: Int32) -> UInt64 {
        var value: UInt64 = 0
        let count = withUnsafeMutableBytes(of: &value) { read(fd, $0.baseAddress, 8) }
        return count == 8 ? value : 0
    }

    @Test func deliversReadableEventsAndStopsAfterCancel() async throws {
        let fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        defer { close(fd) }
        let received = Atomic<Int>(0)
        let registration = try EventLoop.shared.register(fileDescriptor: fd, interest: .readable) { ready in
            #expect(ready.contains(.readable))
            received.add(Int(drain(fd)), ordering: .relaxed)
        }
        signal(fd)
        #expect(await eventually { received.load(ordering: .relaxed) == 1 })
        registration.cancel()
        registration.cancel()
        #expect(registration.isCancelled)
        signal(fd)
        try await EventLoop.shared.barrier()
        let receivedNow = received.load(ordering: .relaxed)
        #expect(receivedNow == 1)
    }

    @Test func concurrentRegistrationOfHundredSourcesDeliversEveryEventWithoutLeaks() async throws {
        // Start the loop first so its own descriptors are not counted as a leak.
        let warmup = try EventLoop.shared.schedule(after: .milliseconds(1)) {}
        warmup.cancel()
        let before = ProcessProbe.openDescriptorCount(linkingTo: "anon_inode:[eventfd]")
        let delivered = FutexMutex<[Int: UInt64]>([:])
        concurrently(4) { worker in
            for index in 0..<25 {
                let id = worker * 25 + index
                let fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
                let registration = try? EventLoop.shared.register(fileDescriptor: fd, interest: .readable) { _ in
                    let value = drain(fd)
                    delivered.withLock { $0[id, default: 0] += value }
                }
                #expect(registration != nil)
                signal(fd)
                let deadline = ContinuousClock.now + .seconds(10)
                while delivered.withLock({ $0[id] }) != 1 && ContinuousClock.now < deadline { usleep(200) }
                registration?.cancel()
                close(fd)
            }
        }
        let counts = delivered.withLock { $0 }
        #expect(counts.count == 100)
        #expect(counts.values.allSatisfy { $0 == 1 })
        #expect(await eventually { ProcessProbe.openDescriptorCount(linkingTo: "anon_inode:[eventfd]") <= before })
    }

    @Test func cancelWaitsForARunningHandlerFromAnotherThread() async throws {
        let fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        defer { close(fd) }
        let started = DispatchSemaphore(value: 0)
        let finished = Atomic<Bool>(false)
        let registration = try EventLoop.shared.register(fileDescriptor: fd, interest: .readable) { _ in
            _ = drain(fd)
            started.signal()
            usleep(200_000)
            finished.store(true, ordering: .releasing)
        }
        signal(fd)
        started.wait()
        registration.cancel()
        let finishedNow = finished.load(ordering: .acquiring)
        #expect(finishedNow)
    }

    @Test func cancelFromInsideTheHandlerStopsFurtherCalls() async throws {
        let fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        defer { close(fd) }
        let calls = Atomic<Int>(0)
        let holder = FutexMutex<EventLoop.Registration?>(nil)
        let registration = try EventLoop.shared.register(fileDescriptor: fd, interest: .readable) { _ in
            // Deliberately does not drain: level-triggered epoll would call again if the cancel did not work.
            calls.add(1, ordering: .relaxed)
            holder.withLock { $0 }?.cancel()
        }
        holder.withLock { $0 = registration }
        signal(fd)
        #expect(await eventually { calls.load(ordering: .relaxed) >= 1 })
        try await EventLoop.shared.barrier()  // the descriptor is still readable: a live registration runs first
        let callsNow = calls.load(ordering: .relaxed)
        #expect(callsNow == 1)
        #expect(registration.isCancelled)
    }

    @Test func repeatingAndOneShotTimersFire() async throws {
        let ticks = Atomic<Int>(0)
        let once = Atomic<Int>(0)
        let repeating = try EventLoop.shared.schedule(every: .milliseconds(10)) { ticks.add(1, ordering: .relaxed) }
        let single = try EventLoop.shared.schedule(after: .milliseconds(10)) { once.add(1, ordering: .relaxed) }
        #expect(await eventually { ticks.load(ordering: .relaxed) >= 3 && once.load(ordering: .relaxed) == 1 })
        repeating.cancel()
        let stopped = ticks.load(ordering: .relaxed)
        try await EventLoop.shared.barrier(after: .milliseconds(30))  // three periods on the loop's own clock
        let ticksNow = ticks.load(ordering: .relaxed)
        #expect(ticksNow == stopped)
        let onceNow = once.load(ordering: .relaxed)
        #expect(onceNow == 1)
        #expect(single.isCancelled)
    }

    @Test func idleLoopBurnsNoCPU() async throws {
        let fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        defer { close(fd) }
        // The shared loop's own thread, by its id: private loops of other suites have the same name and come and go
        // (CI once read one thread before the sleep and another after it).
        let loopThread = Atomic<Int32>(0)
        let registration = try EventLoop.shared.register(fileDescriptor: fd, interest: .readable) { _ in
            loopThread.store(ProcessProbe.currentThreadID, ordering: .relaxed)
            _ = drain(fd)
        }
        defer { registration.cancel() }
        var one: UInt64 = 1
        _ = write(fd, &one, 8)
        #expect(await eventually { loopThread.load(ordering: .relaxed) != 0 })
        let thread = loopThread.load(ordering: .relaxed)
        let before = try #require(ProcessProbe.cpuTicks(ofThread: thread))
        try await Task.sleep(for: .seconds(1))
        let after = try #require(ProcessProbe.cpuTicks(ofThread: thread))
        // Clock ticks are 10 ms; a spinning thread would show about 100 over one second. The shared loop also serves
        // other suites' timers while this runs (slower under sanitizers), so allow a fifth of that, not zero.
        #expect(after - before <= 20)
    }

    @Test func privateLoopShutsDownAndClosesItsDescriptors() async throws {
        // By kind, not in all: parallel suites open sockets and files meanwhile; their loops come and go.
        let kinds = ["anon_inode:[eventpoll]", "anon_inode:[eventfd]", "anon_inode:[timerfd]"]
        let before = kinds.map { ProcessProbe.openDescriptorCount(linkingTo: $0) }
        let loop = EventLoop()
        let fired = Atomic<Bool>(false)
        _ = try loop.schedule(after: .milliseconds(1)) { fired.store(true, ordering: .relaxed) }
        #expect(await eventually { fired.load(ordering: .relaxed) })
        loop.shutdown()
        #expect(
            await eventually { zip(kinds, before).allSatisfy { ProcessProbe.openDescriptorCount(linkingTo: $0) <= $1 } }
        )
        #expect(throws: SensorError.self) { try loop.schedule(after: .milliseconds(1)) {} }
    }
}
