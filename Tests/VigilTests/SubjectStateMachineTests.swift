import Testing

@testable import Vigil

/// The subject engine's decisions, tested as a value type: an event in, an action out, no threads.
@Suite(.timeLimit(.minutes(10))) struct SubjectStateMachineTests {
    /// A delivery role held in a plain variable.
    final class PlainRole: DeliveryRole {
        var state = 0

        var isDelivering: Bool { state != 0 }

        func claimIfIdle() -> Bool {
            guard state == 0 else { return false }
            state = 1
            return true
        }

        func markPendingOrClaim() -> Bool {
            if state == 0 {
                state = 1
                return true
            }
            state = 2
            return false
        }

        func release() { state = 0 }
    }

    typealias Machine = SubjectStateMachine<Int>

    let engine = SubjectEngine<Int>(current: nil)

    func entry() -> SubjectEntry<Int> {
        SubjectEntry(subscriber: Subscriber(engine: engine, mailbox: nil), onNext: { _ in }, onCompletion: { _ in })
    }

    @Test func aPublishWithNobodyDeliveringDeliversToEverySubscriber() {
        var machine = Machine(current: nil)
        let role = PlainRole()
        for _ in 0..<3 { _ = machine.attach(entry(), thread: 1, role: role) }
        guard case .deliver(let subscribers) = machine.publish(5, thread: 1, role: role) else {
            Issue.record("expected a delivery")
            return
        }
        #expect(subscribers.count == 3)
        #expect(role.isDelivering)
    }

    @Test func aPublishDuringADeliveryIsQueuedWithATicketAndDrainedInOrder() {
        var machine = Machine(current: nil)
        let role = PlainRole()
        _ = machine.attach(entry(), thread: 1, role: role)
        _ = machine.publish(1, thread: 1, role: role)
        guard case .queued(let first) = machine.publish(2, thread: 2, role: role),
            case .queued(let second) = machine.publish(3, thread: 2, role: role)
        else {
            Issue.record("expected queued publishes")
            return
        }
        #expect((first, second) == (1, 2))
        var drained: [Int] = []
        while case .deliver(let value, _) = machine.nextQueued(role: role) { drained.append(value) }
        #expect(drained == [2, 3])
        #expect(!role.isDelivering)
    }

    @Test func aPublisherWhoseDelivererJustGaveUpDrainsItself() {
        var machine = Machine(current: nil)
        let role = PlainRole()
        _ = machine.publish(1, thread: 1, role: role)
        // The deliverer's compare-and-swap gave the role up outside the lock; a publisher finds it idle.
        role.release()
        guard case .deliver = machine.publish(2, thread: 2, role: role) else {
            Issue.record("expected this publisher to deliver")
            return
        }
        #expect(machine.deliveringThread == 2)
    }

    @Test func terminationIsDeliveredOnceAndLaterEventsAreIgnored() {
        var machine = Machine(current: nil)
        let role = PlainRole()
        _ = machine.attach(entry(), thread: 1, role: role)
        guard case .deliver(let subscribers) = machine.terminate(.finished, thread: 1, role: role) else {
            Issue.record("expected the completion to be delivered")
            return
        }
        #expect(subscribers.count == 1)
        #expect(machine.subscribers.isEmpty)
        guard case .none = machine.publish(1, thread: 1, role: role),
            case .none = machine.terminate(.finished, thread: 1, role: role)
        else {
            Issue.record("expected later events to be ignored")
            return
        }
        guard case .terminated = machine.attach(entry(), thread: 1, role: role) else {
            Issue.record("expected a late subscriber to get the terminal event")
            return
        }
    }

    @Test func aBehaviorSubjectReplaysItsValueAndQueuesANewcomerBehindADelivery() {
        var machine = Machine(current: 7)
        let role = PlainRole()
        guard case .replay(7) = machine.attach(entry(), thread: 1, role: role) else {
            Issue.record("expected a replay of the current value")
            return
        }
        _ = machine.publish(8, thread: 2, role: role)
        #expect(machine.current == 8)
        guard case .queued = machine.attach(entry(), thread: 2, role: role) else {
            Issue.record("expected the newcomer to wait behind the delivery")
            return
        }
        guard case .deliver(8, _) = machine.nextQueued(role: role) else {
            Issue.record("expected the newcomer's replay of the value current at its turn")
            return
        }
    }

    @Test func detachSetsTheFlagAndTombstonesOutOfOrderEntries() {
        var machine = Machine(current: nil)
        let role = PlainRole()
        let entries = (0..<3).map { _ in entry() }
        for entry in entries { _ = machine.attach(entry, thread: 1, role: role) }
        let (released, disposed) = machine.detach(entries[0].subscriber, ignoring: { _ in })
        #expect(disposed && released.count == 1)
        #expect(entries[0].subscriber.isDisposed)
        #expect(machine.subscribers.count == 3 && machine.tombstones == 1)
        #expect(machine.detach(entries[0].subscriber, ignoring: { _ in }).disposed == false)
        _ = machine.detach(entries[2].subscriber, ignoring: { _ in })
        #expect(machine.subscribers.count == 2)
    }
}
