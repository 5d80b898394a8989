extension SubjectEngine {
    /// Publishes the value `next` makes of the cached one, computed under the lock, so that concurrent publishers
    /// each build on the other's result; for an engine with a cached value. Ignored once terminated.
    ///
    /// `next` runs under the lock: it must be quick and must not call into Vigil. With `backpressured`, see
    /// ``publishBackpressured(_:)``.
    @inlinable
    func publishAdvancing(backpressured: Bool = false, _ next: @Sendable (Element) -> Element) {
        let thread = currentThreadID()
        let (action, value, deliverer) = state.withLock { machine -> (Action, Element?, UInt) in
            guard machine.terminal == nil, let current = machine.current else { return (.none, nil, 0) }
            let value = next(current)
            let action = snapshotting(machine.publish(value, thread: thread, role: self), machine)
            return (action, value, machine.deliveringThread)
        }
        guard let value else { return }
        act(on: action, value: value, backpressured: backpressured && deliverer != thread)
    }

    /// Publishes `value`, and when another thread is delivering, waits (bounded and asleep, as outside callbacks)
    /// for it to be delivered even when called from inside a callback.
    ///
    /// For an operator that feeds a subject from its upstream's callback: without the wait, an upstream publishing
    /// without pause would queue values behind a subscriber that is replaying (and so delivering) without bound,
    /// and keep that subscriber's thread draining them. The wait is bounded like every publisher's, so it cannot
    /// deadlock; it is skipped when this thread is the deliverer.
    @inlinable
    func publishBackpressured(_ value: Element) {
        let thread = currentThreadID()
        let (action, deliverer) = state.withLock { machine -> (Action, UInt) in
            let action = snapshotting(machine.publish(value, thread: thread, role: self), machine)
            return (action, machine.deliveringThread)
        }
        act(on: action, value: value, backpressured: deliverer != thread)
    }

    @inlinable
    func act(on action: Action, value: Element, backpressured: Bool) {
        switch action {
        case .none:
            return
        case .queued(let ticket):
            awaitDelivery(of: ticket, evenInsideCallback: backpressured)
        case .drain:
            drainPending()
        case .deliver(let snapshot):
            deliver(value, to: snapshot)
            endDelivery()
        }
    }
}
