import Dispatch
import Synchronization
import Testing
import Vigil
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct BridgeTests {
    @Test func valuesEndsOnFinish() async throws {
        let subject = BehaviorSubject(1)
        let received = Atomic<Int>(0)
        let task = Task {
            var seen: [Int] = []
            for try await value in subject.values {
                seen.append(value)
                received.add(1, ordering: .releasing)
            }
            return seen
        }
        while received.load(ordering: .acquiring) == 0 { await Task.yield() }
        subject.publish(2)
        subject.complete()
        let seen = try await task.value
        #expect(seen == [1, 2])
    }

    @Test func valuesThrowsOnFailure() async {
        let subject = PublishSubject<Int>()
        subject.fail(TestError(code: 5))
        await #expect(throws: TestError(code: 5)) {
            for try await _ in subject.values {}
        }
    }

    @Test func cancellingTheConsumingTaskDisposesTheSubscription() async {
        let subject = PublishSubject<Int>()
        weak var weakToken: LifetimeToken?
        let started = Atomic<Bool>(false)
        let task: Task<Void, Never>
        do {
            let token = LifetimeToken()
            weakToken = token
            task = Task {
                do {
                    for try await _ in subject.map({ value -> Int in
                        _ = token; return value
                    }).values {
                        started.store(true, ordering: .relaxed)
                    }
                } catch {}
            }
        }
        while !started.load(ordering: .relaxed) {
            subject.publish(1)
            await Task.yield()
        }
        task.cancel()
        await task.value
        #expect(eventually(timeout: 10) { weakToken == nil })
    }

    @Test func notificationHubDeliversByTypeAndSender() {
        struct Low: Sendable, Equatable { let percent: Int }
        struct Other: Sendable {}
        let hub = NotificationHub()
        let battery = LifetimeToken()
        let otherSender = LifetimeToken()
        let all = Recorder<Int>()
        let fromBattery = Recorder<Int>()
        let bag = DisposeBag()
        hub.observe(Low.self) { all.record($0.percent) }.disposed(by: bag)
        hub.observe(Low.self, from: battery) { fromBattery.record($0.percent) }.disposed(by: bag)
        hub.post(Low(percent: 5), from: battery)
        hub.post(Low(percent: 4), from: otherSender)
        hub.post(Low(percent: 3))
        hub.post(Other())
        #expect(all.values == [5, 4, 3])
        #expect(fromBattery.values == [5])
        bag.dispose()
        hub.post(Low(percent: 2))
        #expect(all.values == [5, 4, 3])
    }

    @Test func notificationHubDeliversOnAQueue() {
        let hub = NotificationHub()
        let queue = DispatchQueue(label: "hub")
        let recorder = Recorder<String>()
        let subscription = hub.observe(String.self, on: .queue(queue)) { recorder.record($0) }
        hub.post("hello")
        queue.sync {}
        #expect(eventually { recorder.values == ["hello"] })
        subscription.dispose()
    }
}
