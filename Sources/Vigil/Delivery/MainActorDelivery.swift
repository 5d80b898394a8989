/// Delivery on the main actor: what `subscribe(on: .mainActor)` takes, for callbacks that are `@MainActor`.
///
/// Values go through a mailbox of the subscriber's own, exactly as with ``Delivery/queue(_:buffer:)``: the
/// mailbox is drained in batches by a task on the main actor, values arrive in publish order, callbacks never
/// overlap, the buffer policy says what a slow consumer keeps, and ``Subscription/dispose()`` keeps its promises.
/// A `@MainActor` type can capture `self` and mutate its state in the callback:
///
/// ```swift
/// @MainActor final class ViewModel {
///     var label = ""
///     var subscription: Subscription?
///
///     func start(_ ages: PublishSubject<Int>) {
///         subscription = ages.subscribe(on: .mainActor) { self.label = "\($0)" }
///     }
/// }
/// ```
///
/// The main actor must be running for anything to arrive: a program with an `async` `main` (or one that calls
/// `dispatchMain()`) runs it. On Linux its jobs run on the main dispatch queue, which, once the main thread has
/// handed itself to Dispatch, is drained by one worker thread at a time: serial and in order, but not on the thread
/// whose id is the process id.
public struct MainActorDelivery: Sendable {
    /// What the mailbox keeps when values arrive faster than the main actor takes them.
    public let buffer: BufferPolicy

    /// On the main actor, keeping every value.
    public static var mainActor: MainActorDelivery {
        MainActorDelivery(buffer: .unbounded)
    }

    /// On the main actor, keeping what `buffer` says when the main actor falls behind.
    ///
    /// - Parameter buffer: The mailbox's policy; see ``BufferPolicy``.
    public static func mainActor(buffer: BufferPolicy) -> MainActorDelivery {
        MainActorDelivery(buffer: buffer)
    }
}
