import Synchronization

/// The role's half of ``SubjectEngine/deliveryState``: its low bits; the rounds are the rest (see the property).
extension SubjectEngine: DeliveryRole {
    @inlinable
    var isDelivering: Bool { deliveryState.load(ordering: .acquiring) & Self.roleMask != Self.idle }

    /// Claims the idle role; under the lock, where nobody else changes the word while it is idle.
    @inlinable
    func claimIfIdle() -> Bool {
        let word = deliveryState.load(ordering: .acquiring)
        guard word & Self.roleMask == Self.idle else { return false }
        deliveryState.store(word | Self.delivering, ordering: .relaxed)
        return true
    }

    /// Under the lock: marks an event queued for the holder, or claims the role the holder gave up meanwhile.
    @inlinable
    func markPendingOrClaim() -> Bool {
        var word = deliveryState.load(ordering: .relaxed)
        while word & Self.roleMask == Self.delivering {
            // The holder may end a round (moving the rounds) or give up the role meanwhile: then look again.
            let (marked, found) = deliveryState.compareExchange(
                expected: word, desired: word & ~Self.roleMask | Self.deliveringWithPending,
                ordering: .acquiringAndReleasing)
            if marked { return false }
            word = found
        }
        guard word & Self.roleMask == Self.idle else { return false }
        deliveryState.store(word | Self.delivering, ordering: .relaxed)
        return true
    }

    /// Gives up the role, under the lock and by its holder, its last round already counted.
    @inlinable
    func release() {
        deliveryState.store(deliveryState.load(ordering: .relaxed) & ~Self.roleMask, ordering: .releasing)
    }
}

extension SubjectEngine {
    /// The subscribers a delivery goes to, with the disposal count they were taken at.
    @usableFromInline
    struct Snapshot {
        @usableFromInline let subscribers: ContiguousArray<Entry>
        @usableFromInline let epoch: UInt

        @inlinable
        init(subscribers: ContiguousArray<Entry>, epoch: UInt) {
            self.subscribers = subscribers
            self.epoch = epoch
        }
    }

    /// Takes a snapshot; call under the lock.
    @inlinable
    func takeSnapshot(of subscribers: ContiguousArray<Entry>) -> Snapshot {
        Snapshot(subscribers: subscribers, epoch: disposals.load(ordering: .relaxed))
    }

    /// One round: `value` to every subscriber of the snapshot that was not disposed meanwhile.
    ///
    /// A single subscriber is called in line. Several are called by a loop of its own, out of line: inlined into the
    /// publishing code, the loop shares the caller's registers, and where the caller keeps values of its own in them
    /// the loop reloads its state from the stack on every subscriber (fan-out to 100 was 30 % slower for it).
    @inlinable
    func deliver(_ value: Element, to snapshot: Snapshot) {
        CallbackDepth.delivering {
            CrossThreadFence.deliveryFence(asymmetric: asymmetric)
            if snapshot.subscribers.count == 1 {
                let entry = snapshot.subscribers[0]
                if disposals.load(ordering: .acquiring) != snapshot.epoch, entry.subscriber.isDisposed { return }
                entry.onNext(value)
            } else {
                deliverInLoop(value, to: snapshot)
            }
        }
    }

    /// The loop of ``deliver(_:to:)`` for several subscribers; call inside `CallbackDepth.delivering`.
    @inlinable @inline(never)
    func deliverInLoop(_ value: Element, to snapshot: Snapshot) {
        let epoch = snapshot.epoch
        for entry in snapshot.subscribers {
            // A disposal made meanwhile changed the count: then check the flag (set under the lock, with it).
            if disposals.load(ordering: .acquiring) != epoch, entry.subscriber.isDisposed { continue }
            entry.onNext(value)
        }
    }

    /// One round: the terminal event to every subscriber of the snapshot that was not disposed meanwhile.
    @inlinable
    func finish(_ snapshot: Snapshot, with completion: Completion) {
        CallbackDepth.delivering {
            CrossThreadFence.deliveryFence(asymmetric: asymmetric)
            for entry in snapshot.subscribers where !entry.subscriber.isDisposed {
                entry.onCompletion(completion)
            }
        }
    }

    /// Ends the round and gives up delivery in one compare-and-swap when nothing was queued; otherwise counts the
    /// round and drains the queue.
    ///
    /// The round is counted while this thread still holds the role, or in the same atomic step that gives it up:
    /// counted after, a count delayed (this thread preempted) would land in the next holder's round, and
    /// ``awaitCallbacks()`` would take it for that round's end while a callback of it still runs.
    @inlinable
    func endDelivery() {
        let word = deliveryState.load(ordering: .relaxed)
        if word & Self.roleMask == Self.delivering {
            let (released, _) = deliveryState.compareExchange(
                expected: word, desired: (word &+ Self.oneRound) & ~Self.roleMask, ordering: .acquiringAndReleasing)
            if released { return progress.wakeWaiters(asymmetric: asymmetric) }
        }
        endRound()
        drainPending()
    }

    /// Counts a round done, by the holder of the role; others may mark the word pending meanwhile, hence the add.
    @inlinable
    func endRound() {
        deliveryState.add(Self.oneRound, ordering: .releasing)
    }

    /// Delivers queued events until none is left, then gives up the deliverer role.
    @inlinable
    func drainPending() {
        while true {
            let step = state.withLock { machine -> DrainStep in
                switch machine.nextQueued(role: self) {
                case .done: return .done
                case .skip: return .skip
                case .deliver(let value, let subscribers): return .deliver(value, takeSnapshot(of: subscribers))
                case .finish(let completion, let subscribers): return .finish(completion, takeSnapshot(of: subscribers))
                }
            }
            switch step {
            case .done:
                // Given up under the lock: wake who waits for that (each round was marked done before it).
                progress.wakeWaiters(asymmetric: asymmetric)
                return
            case .skip:
                break
            case .deliver(let value, let snapshot):
                deliver(value, to: snapshot)
            case .finish(let completion, let snapshot):
                finish(snapshot, with: completion)
            }
            deliveredCount.add(1, ordering: .releasing)
            endRound()
            progress.wakeWaiters(asymmetric: asymmetric)
        }
    }

    @usableFromInline
    enum DrainStep {
        case done
        case skip
        case deliver(Element, Snapshot)
        case finish(Completion, Snapshot)
    }
}
