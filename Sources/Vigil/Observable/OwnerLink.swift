/// The weak link between an owner and its subscription, for `subscribe(with:)`.
///
/// It holds the owner weakly, so the subscription never keeps it alive, and the subscription weakly, so a
/// subscription nobody holds is still disposed when released. The first callback that finds the owner gone
/// disposes the subscription.
@usableFromInline
final class OwnerLink<Owner: AnyObject & Sendable>: Sendable {
    @usableFromInline
    struct State {
        @usableFromInline weak var subscription: Subscription?
        @usableFromInline var ownerIsGone = false

        @inlinable
        init() {}
    }

    @usableFromInline weak let owner: Owner?
    @usableFromInline let state = FutexMutex(State())

    @inlinable
    init(_ owner: Owner) {
        self.owner = owner
    }

    /// The owner, or nil after disposing the subscription if the owner is gone.
    @inlinable
    func ownerOrEnd() -> Owner? {
        if let owner { return owner }
        let subscription = state.withLock { state -> Subscription? in
            state.ownerIsGone = true
            return state.subscription
        }
        subscription?.dispose()
        return nil
    }

    /// A callback that passes the owner to `body`, or ends the subscription if the owner is gone.
    @inlinable
    func bind<Value>(_ body: @escaping @Sendable (Owner, Value) -> Void) -> @Sendable (Value) -> Void {
        { value in
            if let owner = self.ownerOrEnd() { body(owner, value) }
        }
    }

    /// ``bind(_:)`` for a callback on the main actor.
    @inlinable
    func bindOnMainActor<Value>(_ body: @escaping @MainActor (Owner, Value) -> Void) -> @MainActor (Value) -> Void {
        { value in
            if let owner = self.ownerOrEnd() { body(owner, value) }
        }
    }

    /// Links the subscription; disposes it at once if a callback already found the owner gone.
    @inlinable
    func link(_ subscription: Subscription) -> Subscription {
        let ownerIsGone = state.withLock { state -> Bool in
            state.subscription = subscription
            return state.ownerIsGone
        }
        if ownerIsGone { subscription.dispose() }
        return subscription
    }
}
