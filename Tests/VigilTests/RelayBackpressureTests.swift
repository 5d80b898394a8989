import Dispatch
import Synchronization
import Testing
import Vigil
import VigilTestSupport

/// The operators that serialize several upstreams through a relay, under two upstreams publishing without pause on
/// threads of their own into a subscriber slower than both: what they hold stays bounded. Counted by deinit, not
/// read from internals.
// Serialized: each case keeps two threads publishing without pause and a third delivering for a second.
@Suite(.serialized, .timeLimit(.minutes(10))) struct RelayBackpressureTests {
    typealias Tracked = LiveCounter.Tracked

    static let operators = ["merge", "combineLatest", "combineLatest of an array", "withLatestFrom", "flatMap"]

    static func combine(_ name: String, _ first: Observable<Tracked>, _ second: Observable<Tracked>)
        -> Observable<Tracked>
    {
        switch name {
        case "merge": Observable.merge(first, second)
        case "combineLatest": Observable.combineLatest(first, second).map { $0.0 }
        case "combineLatest of an array": Observable.combineLatest([first, second]).map { $0[0] }
        case "withLatestFrom": first.withLatestFrom(second)
        default: Observable.from([first, second]).flatMap { $0 }
        }
    }

    @Test(arguments: operators)
    func twoTirelessUpstreamsIntoASlowSubscriberHoldABoundedNumberOfValues(name: String) {
        let counter = LiveCounter()
        let first = PublishSubject<Tracked>()
        let second = PublishSubject<Tracked>()
        let delivered = Atomic<Int>(0)
        let subscription = Self.combine(name, first.asObservable(), second.asObservable()).subscribe { _ in
            delivered.add(1, ordering: .relaxed)
            spin(nanoseconds: 2_000)  // slower than either publisher
        }
        let publishers = [Publisher(into: first, counter: counter), Publisher(into: second, counter: counter)]
        var mostHeld = 0
        let end = DispatchTime.now().uptimeNanoseconds + 1_000_000_000
        while DispatchTime.now().uptimeNanoseconds < end {
            mostHeld = max(mostHeld, counter.count)
            usleepMilliseconds(1)
        }
        // Both told first: before the fix, the first publisher's thread stayed trapped draining the second's values
        // for as long as the second published.
        for publisher in publishers { publisher.requestStop() }
        for publisher in publishers { publisher.waitUntilStopped() }
        subscription.dispose()
        #expect(delivered.load(ordering: .relaxed) > 0)
        // Measured: 4 to 7 (the values in flight and in the mailboxes). Without backpressure on the relay the second
        // thread's values piled up behind the first's delivery: 14,000 to 23,000 within the second, growing while
        // it ran, and the first publisher's thread stayed trapped draining them. The margin is for a loaded machine,
        // where a descheduled deliverer lets a waiting feed time out (2 ms) and queue one more.
        #expect(mostHeld <= 1_000, "\(name) held \(mostHeld) values at once")
    }
}

/// Publishes new tracked values without pause into a subject, on a thread of its own, until asked to stop.
private final class Publisher: Sendable {
    private let running = Atomic<Bool>(true)
    private let stopped = DispatchSemaphore(value: 0)

    init(into subject: PublishSubject<LiveCounter.Tracked>, counter: LiveCounter) {
        TestThread.detach { [self] in
            var number = 0
            while running.load(ordering: .relaxed) {
                subject.publish(LiveCounter.Tracked(number, counter: counter))
                number += 1
            }
            stopped.signal()
        }
    }

    /// Asks the thread to stop after its current publish.
    func requestStop() {
        running.store(false, ordering: .relaxed)
    }

    /// Returns once the last publish has returned.
    func waitUntilStopped() {
        stopped.wait()
    }
}

/// Busy for about `nanoseconds`: a subscriber doing work, not sleeping.
private func spin(nanoseconds: UInt64) {
    let end = DispatchTime.now().uptimeNanoseconds + nanoseconds
    while DispatchTime.now().uptimeNanoseconds < end {}
}
