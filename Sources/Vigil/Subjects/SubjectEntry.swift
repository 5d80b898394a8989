/// One subscriber as a subject's delivery loop sees it: its subscriber and the functions to call.
///
/// The closures live here, so removing the entry from the list (dispose, termination) releases them.
@usableFromInline
struct SubjectEntry<Element: Sendable>: Sendable {
    @usableFromInline let subscriber: Subscriber<Element>
    /// The user's closure for immediate delivery; the mailbox's push for queue delivery.
    @usableFromInline let onNext: @Sendable (Element) -> Void
    /// The user's closure for immediate delivery; the mailbox's completion for queue delivery.
    @usableFromInline let onCompletion: @Sendable (Completion) -> Void

    @inlinable
    init(
        subscriber: Subscriber<Element>,
        onNext: @escaping @Sendable (Element) -> Void,
        onCompletion: @escaping @Sendable (Completion) -> Void
    ) {
        self.subscriber = subscriber
        self.onNext = onNext
        self.onCompletion = onCompletion
    }

    /// What a disposed entry becomes until the list is compacted: same subscriber, closures that do nothing.
    @inlinable
    func tombstone(ignoring: @escaping @Sendable (Element) -> Void) -> SubjectEntry {
        SubjectEntry(subscriber: subscriber, onNext: ignoring, onCompletion: { _ in })
    }
}
