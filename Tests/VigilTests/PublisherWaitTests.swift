import Dispatch
import Glibc
import Synchronization
import Testing
import Vigil
import VigilTestSupport

/// A publisher inside any delivery never waits; one outside waits for its queued value, bounded and asleep; an
/// operator fed from inside deliveries does not stall another that feeds it back.
@Suite(.timeLimit(.minutes(10))) struct PublisherWaitTests {
    @Test func subjectsFeedingEachOtherFromTwoThreadsDoNotStall() {
        // Each hop is a publish from inside the other subject's callback. A publisher that waited for the other
        // thread's delivery here stalled every hop for its bounded wait (about 500 hops a second); 20,000 hops
        // took 40 s. The bound is a stall detector, not a speed check: 200,200 hops take about a second in a
        // debug build, under ten with ThreadSanitizer, and over a minute with publishers that wait.
        let ping = PublishSubject<Int>()
        let pong = PublishSubject<Int>()
        #expect(rallyFinishes(ping: (ping.asObservable(), ping, ping), pong: (pong.asObservable(), pong, pong)))
    }

    @Test func operatorsFeedingEachOtherFromTwoThreadsDoNotStall() {
        // The same ping-pong through two merges: each hop is a merge's feed from inside the other merge's delivery.
        // Feeds there that waited for the other thread's delivery stalled each other at every hop, as the subjects
        // above did; they wait only when their publisher was outside every callback, or behind a long backlog.
        let (pingInput, pingFeedback) = (PublishSubject<Int>(), PublishSubject<Int>())
        let (pongInput, pongFeedback) = (PublishSubject<Int>(), PublishSubject<Int>())
        let ping = Observable.merge(pingInput.asObservable(), pingFeedback.asObservable())
        let pong = Observable.merge(pongInput.asObservable(), pongFeedback.asObservable())
        #expect(rallyFinishes(ping: (ping, pingInput, pingFeedback), pong: (pong, pongInput, pongFeedback)))
    }

    /// One side of a rally: the stream its callback sees, where its thread serves, where the other side returns.
    typealias Side = (stream: Observable<Int>, serve: PublishSubject<Int>, back: PublishSubject<Int>)

    /// Plays 100 rallies of 1,000 hops served from each side's own thread: each value above zero one side sees goes
    /// back, one less, to the other. Returns whether every hop was made within 30 s.
    private func rallyFinishes(ping: Side, pong: Side) -> Bool {
        finishes(within: 30) {
            let hops = Atomic<Int>(0)
            let bag = DisposeBag()
            for (side, other) in [(ping, pong), (pong, ping)] {
                side.stream.subscribe { value in
                    hops.add(1, ordering: .relaxed)
                    if value > 0 { other.back.publish(value - 1) }
                }.disposed(by: bag)
            }
            concurrently(2) { thread in
                for _ in 0..<100 { (thread == 0 ? ping : pong).serve.publish(1_000) }
            }
            #expect(hops.load(ordering: .relaxed) == 2 * 100 * 1_001)
        }
    }

    @Test func aWaitingPublisherSleepsInsteadOfPolling() {
        // The deliverer is stuck in a callback for the whole test; every publish from another thread queues its
        // value and waits (bounded) for it. That wait must sleep: nearly no CPU for the waiting thread.
        let subject = PublishSubject<Int>()
        let stuck = DispatchSemaphore(value: 0)
        let inside = DispatchSemaphore(value: 0)
        let subscription = subject.subscribe { value in
            if value == 0 {
                inside.signal()
                stuck.wait()
            }
        }
        DispatchQueue(label: "deliverer").async { subject.publish(0) }
        inside.wait()
        let cpu = FutexMutex<Double>(0)
        let wall = FutexMutex<Double>(0)
        let done = DispatchSemaphore(value: 0)
        TestThread.detach {
            let startCPU = threadCPUSeconds()
            let startWall = ContinuousClock.now
            for value in 1...20 { subject.publish(value) }
            cpu.withLock { $0 = threadCPUSeconds() - startCPU }
            let elapsed = ContinuousClock.now - startWall
            wall.withLock { $0 = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18 }
            done.signal()
        }
        done.wait()
        stuck.signal()
        subscription.dispose()
        // Each of the 20 publishes waited out its bound, asleep: a few ms of wall time, almost no CPU.
        #expect(wall.withLock { $0 } > 0.02)
        #expect(cpu.withLock { $0 } < 0.01)
    }

    @Test func aPublisherThatNeverPausesCannotTrapAnotherThreadDelivering() {
        let subject = PublishSubject<Int>()
        let publisher = TirelessPublisher(into: subject)
        // Each subscribe may have to deliver the publisher's queued values; it must still return promptly.
        let received = Atomic<Int>(0)
        let finished = finishes {
            for _ in 0..<50 {
                let subscription = subject.subscribe { _ in received.add(1, ordering: .relaxed) }
                subscription.dispose()
            }
        }
        publisher.stop()
        #expect(finished)
    }
}

/// The calling thread's CPU time in seconds.
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
