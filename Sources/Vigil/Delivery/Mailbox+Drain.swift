import Synchronization

extension Mailbox {
    /// What the drain does next, decided under the lock.
    @usableFromInline
    enum DrainStep {
        case stop
        case reschedule
        case values(@Sendable (Element) -> Void)
        /// The completion, and the value callback taken out of the lock with it: releasing that closure may run
        /// user code (a deinit that disposes this very subscription), so it is released after the lock.
        case complete(Completion, @Sendable (Completion) -> Void, released: Released)
    }

    /// Delivers what is pending, in order, on the queue; one drain runs at a time.
    @inlinable
    func drain() {
        drainingThread.store(currentThreadID(), ordering: .releasing)
        CallbackDepth.delivering { drainSteps() }
        drainingThread.store(0, ordering: .releasing)
        progress.advance(asymmetric: asymmetric)
    }

    @inlinable
    func drainSteps() {
        var batch: ContiguousArray<Element?> = []
        var delivered = 0
        while true {
            switch nextStep(&batch, delivered: delivered) {
            case .stop:
                return
            case .reschedule:
                schedule()
                return
            case .values(let onNext):
                for index in batch.indices {
                    guard let value = batch[index] else { continue }
                    batch[index] = nil
                    guard call({ onNext(value) }) else { break }
                    delivered += 1
                }
            case .complete(let completion, let onCompletion, let released):
                _ = call { onCompletion(completion) }
                withExtendedLifetime(released) {}
                return
            }
        }
    }

    /// Takes the next values (all of them, or one under a bounded policy) or the completion, under the lock.
    @inlinable
    func nextStep(_ batch: inout ContiguousArray<Element?>, delivered: Int) -> DrainStep {
        state.withLock { state -> DrainStep in
            if state.isClosed {
                state.isScheduled = false
                return .stop
            }
            if !state.pending.isEmpty, let onNext = state.onNext {
                if delivered >= Self.drainLimit { return .reschedule }
                if case .unbounded = policy {
                    state.pending.moveAll(into: &batch)
                } else {
                    batch.removeAll(keepingCapacity: true)
                    batch.append(state.pending.popFirst())
                }
                return .values(onNext)
            }
            if let completion = state.completion, let onCompletion = state.onCompletion {
                state.isClosed = true
                state.isScheduled = false
                let released = Released(onNext: state.onNext, onCompletion: nil)
                state.onNext = nil
                state.onCompletion = nil
                return .complete(completion, onCompletion, released: released)
            }
            state.isScheduled = false
            return .stop
        }
    }

    /// Runs one callback unless the subscriber was disposed, then marks the round done; returns whether it ran.
    @inlinable
    func call(_ callback: () -> Void) -> Bool {
        CrossThreadFence.deliveryFence(asymmetric: asymmetric)
        guard !isCancelled.load(ordering: .acquiring) else { return false }
        callback()
        progress.advance(asymmetric: asymmetric)
        return true
    }
}
