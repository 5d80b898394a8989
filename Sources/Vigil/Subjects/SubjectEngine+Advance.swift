import Synchronization

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

    /// Publishes `value` from an operator's upstream callback; when another thread is delivering, waits (bounded
    /// and asleep, as outside callbacks) for it to be delivered, as its upstream's publisher would have.
    ///
    /// Without the wait, an upstream publishing without pause would queue values behind another thread's delivery
    /// without bound, and keep that thread draining them. It waits when the upstream's publisher was outside every
    /// callback (this is its only delivery) and, deeper inside deliveries, only once more than ``feedHighWater``
    /// events wait ahead: operators that feed each other from callbacks on two threads would otherwise stall each
    /// other at every hop. The wait is bounded like every publisher's, so it cannot deadlock; it is skipped when
    /// this thread is the deliverer.
    @inlinable
    func publishBackpressured(_ value: Element) {
        let thread = currentThreadID()
        // Not a tuple result: from the operators' unspecialized generic code, a tuple holding the generic `Action`
        // costs a metadata lookup per publish (flatMapLatest delivered 27 % slower with one).
        var deliverer: UInt = 0
        let action = state.withLock { machine -> Action in
            let action = snapshotting(machine.publish(value, thread: thread, role: self), machine)
            deliverer = machine.deliveringThread
            return action
        }
        act(on: action, value: value, backpressured: deliverer != thread)
    }

    /// After the lock, as ``carryOut(_:of:)``; postponed inside a `modify` body (see ``ModifyScope``).
    @inlinable
    func act(on action: Action, value: Element, backpressured: Bool) {
        // One switch, and the scope checked in each case: in unspecialized generic code (an operator's relay) each
        // look at the generic enum's case costs a metadata lookup.
        switch action {
        case .none:
            return
        case .queued(let ticket):
            if ModifyScope.isOpen { return postponeActing(on: action, value: value, backpressured: backpressured) }
            guard backpressured else { return awaitDelivery(of: ticket) }
            let waiting = ticket &- min(ticket, deliveredCount.load(ordering: .relaxed))
            let fedFromOutside = CallbackDepth.current <= 1
            awaitDelivery(of: ticket, evenInsideCallback: fedFromOutside || waiting > Self.feedHighWater)
        case .drain:
            if ModifyScope.isOpen { return postponeActing(on: action, value: value, backpressured: backpressured) }
            drainPending()
        case .deliver(let snapshot):
            if ModifyScope.isOpen { return postponeActing(on: action, value: value, backpressured: backpressured) }
            deliver(value, to: snapshot)
            endDelivery()
        }
    }

    /// Hands ``act(on:value:backpressured:)`` to the open modify scope; out of line, off the publish path.
    @usableFromInline @inline(never)
    func postponeActing(on action: Action, value: Element, backpressured: Bool) {
        ModifyScope.postpone { self.act(on: action, value: value, backpressured: backpressured) }
    }
}
