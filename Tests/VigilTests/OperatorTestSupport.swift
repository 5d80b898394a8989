import Dispatch
import Synchronization
import Vigil

/// Records values and counts the callbacks that started while another was running: none, if they are serialized.
final class OverlapRecorder<Value: Sendable>: Sendable {
    let recorder = Recorder<Value>()
    private let inside = Atomic<Int>(0)
    private let overlapCount = Atomic<Int>(0)

    var overlaps: Int { overlapCount.load(ordering: .relaxed) }

    func subscribe(to source: some ObservableType<Value>) -> Subscription {
        source.subscribe { value in
            if self.inside.add(1, ordering: .acquiringAndReleasing).newValue != 1 {
                self.overlapCount.add(1, ordering: .relaxed)
            }
            self.recorder.record(value)
            self.inside.subtract(1, ordering: .acquiringAndReleasing)
        }
    }
}

/// Records values delivered on a queue of its own, and counts those delivered anywhere else.
final class QueueRecorder<Value: Sendable>: Sendable {
    let queue = DispatchQueue(label: "queue recorder")
    let recorder = Recorder<Value>()
    private let key = DispatchSpecificKey<Int>()
    private let offQueueCount = Atomic<Int>(0)

    init() {
        queue.setSpecific(key: key, value: 1)
    }

    var offQueue: Int { offQueueCount.load(ordering: .relaxed) }

    func subscribe(to source: some ObservableType<Value>) -> Subscription {
        source.subscribe(
            on: .queue(queue),
            onNext: { value in
                if DispatchQueue.getSpecific(key: self.key) != 1 { self.offQueueCount.add(1, ordering: .relaxed) }
                self.recorder.record(value)
            },
            onCompletion: { self.recorder.recordCompletion($0) })
    }
}

/// A `create` stream that keeps the observer of its latest subscription, for a test to publish into.
final class KeptObserver<Value: Sendable>: Sendable {
    private let kept = FutexMutex<Observer<Value>?>(nil)

    var observer: Observer<Value> { kept.withLock { $0 }! }

    var observable: Observable<Value> {
        Observable.create { observer in
            self.kept.withLock { $0 = observer }
            return Subscription.disposed()
        }
    }
}
