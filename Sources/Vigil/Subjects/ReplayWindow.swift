/// What a ``ReplaySubject`` caches: its newest values, the one the latest publish added, and its end.
///
/// The subject's engine holds it as a behavior subject holds its value, so a new subscriber receives the window of
/// the moment it joined (with no gap to and no overlap with the windows after it) and replays its values; later
/// windows each bring one new value or the end.
///
/// Inlinable, as the subject's publish and delivery that use it: compiled for the element type where the subject is
/// used, so a value does not look up generic metadata on its way.
@usableFromInline
struct ReplayWindow<Element: Sendable>: Sendable {
    /// The newest values, oldest first; at most the subject's buffer size.
    @usableFromInline var buffer: [Element] = []
    /// The value the publish that made this window added; nil for the initial window and the terminal one.
    @usableFromInline var added: Element?
    /// How the subject ended, once it did.
    @usableFromInline var completion: Completion?

    @inlinable
    init() {}

    /// This window with `value` added, and the oldest value dropped beyond `limit`.
    @inlinable
    func adding(_ value: Element, limit: Int) -> ReplayWindow {
        guard completion == nil else { return self }
        var next = self
        next.added = value
        if limit > 0 {
            if next.buffer.count >= limit { next.buffer.removeFirst(next.buffer.count - limit + 1) }
            next.buffer.append(value)
        }
        return next
    }

    /// This window, ended with `completion`.
    @inlinable
    func ending(with completion: Completion) -> ReplayWindow {
        guard self.completion == nil else { return self }
        var next = self
        next.added = nil
        next.completion = completion
        return next
    }
}

/// One subscriber's view of the windows: the first one it receives is replayed whole, each later one brings its
/// added value or the end.
@usableFromInline
struct ReplayCursor: Sendable {
    @usableFromInline var hasStarted = false
    @usableFromInline var isDone = false

    @inlinable
    init() {}

    @usableFromInline
    enum Step<Element: Sendable> {
        case none
        /// The values of the first window, replayed.
        case values([Element], then: Completion?)
        /// The value a later window added, if any: one value, so no array is made for it.
        case added(Element?, then: Completion?)
    }

    /// What to deliver for `window`.
    @inlinable
    mutating func receive<Element>(_ window: ReplayWindow<Element>) -> Step<Element> {
        guard !isDone else { return .none }
        if window.completion != nil { isDone = true }
        guard hasStarted else {
            hasStarted = true
            return .values(window.buffer, then: window.completion)
        }
        return .added(window.added, then: window.completion)
    }

    /// What to deliver when the engine itself ends (after a terminal window, or when the subject is released):
    /// `latest` is the engine's last window.
    @inlinable
    mutating func end<Element>(_ completion: Completion, latest: ReplayWindow<Element>?) -> Step<Element> {
        guard !isDone else { return .none }
        isDone = true
        // A subscriber that joined after the engine ended never received a window: replay the last one.
        let values = hasStarted ? [] : latest?.buffer ?? []
        return .values(values, then: latest?.completion ?? completion)
    }
}
