import Dispatch
import Synchronization
import Testing
import Vigil
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct StressTests {
    /// Several threads publish, several subscribe and dispose, for a bounded number of operations; run under
    /// ThreadSanitizer in CI.
    @Test func publishersAndChurningSubscribersAreRaceFree() {
        let subject = BehaviorSubject(0)
        let queue = DispatchQueue(label: "stress consumer")
        let delivered = Atomic<Int>(0)
        let bag = DisposeBag()
        let steady = Recorder<Int>()
        steady.subscribe(to: subject).disposed(by: bag)
        concurrently(6) { worker in
            if worker < 3 {
                for step in 0..<3000 { subject.publish(worker * 10_000 + step) }
            } else {
                for round in 0..<300 {
                    let delivery: Delivery = round % 2 == 0 ? .immediate : .queue(queue, buffer: .newest(8))
                    let subscription = subject.subscribe(on: delivery) { _ in
                        delivered.add(1, ordering: .relaxed)
                    }
                    if round % 3 == 0 { _ = subject.value }
                    subscription.dispose()
                }
            }
        }
        queue.sync {}
        #expect(steady.count == 9001)
        bag.dispose()
    }
}
