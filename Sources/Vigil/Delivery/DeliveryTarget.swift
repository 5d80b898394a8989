/// The end of a subscription: the subscriber's callbacks with its ``Delivery`` applied.
///
/// Operators subscribe upstream with `.immediate`, run their logic on every value, and emit into a target; only the
/// target applies the delivery, so the mailbox sits between the last operator and the subscriber's callbacks and
/// every operator means the same under every buffer policy.
@usableFromInline
struct DeliveryTarget<Element: Sendable>: Sendable {
    @usableFromInline let onNext: @Sendable (Element) -> Void
    @usableFromInline let onCompletion: @Sendable (Completion) -> Void
    @usableFromInline let mailbox: Mailbox<Element>?

    @inlinable
    init(
        _ delivery: Delivery,
        onNext: @escaping @Sendable (Element) -> Void,
        onCompletion: @escaping @Sendable (Completion) -> Void
    ) {
        switch delivery {
        case .immediate:
            self.init(onNext: onNext, onCompletion: onCompletion, mailbox: nil)
        case .queue(let queue, let buffer):
            self.init(mailboxOn: .queue(queue), buffer: buffer, onNext: onNext, onCompletion: onCompletion)
        }
    }

    /// A target whose callbacks run on `executor`, through a mailbox with `buffer` as its policy.
    @inlinable
    init(
        mailboxOn executor: MailboxExecutor,
        buffer: BufferPolicy,
        onNext: @escaping @Sendable (Element) -> Void,
        onCompletion: @escaping @Sendable (Completion) -> Void
    ) {
        let mailbox = Mailbox(executor: executor, policy: buffer, onNext: onNext, onCompletion: onCompletion)
        self.init(onNext: { mailbox.push($0) }, onCompletion: { mailbox.complete($0) }, mailbox: mailbox)
    }

    @inlinable
    init(
        onNext: @escaping @Sendable (Element) -> Void,
        onCompletion: @escaping @Sendable (Completion) -> Void,
        mailbox: Mailbox<Element>?
    ) {
        self.onNext = onNext
        self.onCompletion = onCompletion
        self.mailbox = mailbox
    }

    /// The subscription for this target fed by `upstream`: disposing it closes the mailbox, then disposes upstream.
    @inlinable
    func subscription(disposing upstream: [any Disposable]) -> Subscription {
        guard let mailbox else {
            return upstream.count == 1 ? Self.single(upstream[0]) : Subscription(disposing: upstream)
        }
        return Subscription { control in
            switch control {
            case .cancel:
                mailbox.cancel()
                for disposable in upstream { disposable.dispose() }
            case .awaitCallbacks:
                for disposable in upstream { disposable.disposeAndWait() }
                mailbox.awaitCallbacks()
            }
        }
    }

    @inlinable
    static func single(_ disposable: any Disposable) -> Subscription {
        if let subscription = disposable as? Subscription { return subscription }
        return Subscription(disposing: [disposable])
    }
}
