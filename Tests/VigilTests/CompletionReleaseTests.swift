import Dispatch
import Synchronization
import Testing
import Vigil
import VigilTestSupport

/// An object kept alive only by a subscriber's callback, whose deinit disposes that same subscription (through its
/// `DisposeBag`): what a view model that owns its bag and captures `self` looks like once its owner lets go.
private final class SelfDisposingOwner: Sendable {
    let bag = DisposeBag()
    let deinits: DeinitCount

    init(deinits: DeinitCount) { self.deinits = deinits }
    deinit { deinits.count.wrappingAdd(1, ordering: .relaxed) }
}

private final class DeinitCount: Sendable {
    let count = Atomic(0)
}

@Suite(.timeLimit(.minutes(10))) struct CompletionReleaseTests {
    /// The mailbox released its value callback under its own lock when the completion came: the owner's deinit then
    /// disposed the subscription, which took that lock again and trapped (found by `SixProgramsTests`).
    @Test func aCallbackReleasedByTheCompletionMayDisposeItsOwnSubscription() {
        let deinits = DeinitCount()
        for delivery in [
            Delivery.queue(DispatchQueue(label: "completion-release")), .queue(.global(), buffer: .latest),
        ] {
            let subject = PublishSubject<Int>()
            do {
                let owner = SelfDisposingOwner(deinits: deinits)
                subject.subscribe(on: delivery) { [owner] _ in _ = owner.bag }.disposed(by: owner.bag)
            }
            subject.publish(1)
            #expect(finishes(within: 30) { subject.complete() })
            #expect(
                finishes(within: 30) {
                    while deinits.count.load(ordering: .relaxed) == 0 { usleepMilliseconds(1) }
                })
            deinits.count.store(0, ordering: .relaxed)
        }
    }
}
