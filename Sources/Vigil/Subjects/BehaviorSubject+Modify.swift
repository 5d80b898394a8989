extension BehaviorSubject {
    /// Reads ``value``, lets `body` change it, and publishes the result once, as one atomic step.
    ///
    /// Concurrent `modify` and ``publishIfChanged(_:)`` calls on this subject run one after the other, each on the
    /// value the previous one published, and every subscriber receives their results in that order: a hundred
    /// threads each adding one never lose an increment. A plain ``publish(_:)`` is not part of that order: one
    /// racing with a `modify` may be overwritten by it.
    ///
    /// `body` runs on the calling thread, exactly once, while other modifiers of this subject wait; it may read
    /// ``value`` and publish to other subjects, but calling `modify` or ``publishIfChanged(_:)`` on this subject
    /// from inside it is a programming error and traps. Subscribers are called after `body` has returned and the
    /// step is over, as ``publish(_:)`` calls them, so a subscriber may call `modify` itself: from inside a
    /// callback the result is queued behind the value in flight, as any publish from a callback is. If `body`
    /// throws, nothing is published and the value stays as it was. Once the subject has completed, `body` still
    /// runs, but nothing is published and ``value`` does not change.
    ///
    /// ```swift
    /// let counter = BehaviorSubject(0)
    /// counter.modify { $0 += 1 }   // subscribers see 1
    /// ```
    ///
    /// - Parameter body: Changes the value in place; its result is returned.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw; then nothing was published.
    @discardableResult
    public func modify<Result, Failure: Error>(
        _ body: (inout Element) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var result: Result?
        _ = try modifyStep { value throws(Failure) -> Bool in
            result = try body(&value)
            return true
        }
        return result!
    }

    /// Reads the value, runs `body` on it, and publishes the changed value if `body` returns true, as one step;
    /// returns whether it published (not when `body` returned false, nor once the subject has completed).
    @usableFromInline
    func modifyStep<Failure: Error>(_ body: (inout Element) throws(Failure) -> Bool) throws(Failure) -> Bool {
        let thread = currentThreadID()
        precondition(
            modifyingThread.load(ordering: .relaxed) != thread,
            "BehaviorSubject.modify or publishIfChanged called from inside a modify body of the same subject")
        let (action, value) = try modifyLock.withLock { _ throws(Failure) -> (SubjectEngine<Element>.Action, Element) in
            modifyingThread.store(thread, ordering: .relaxed)
            defer { modifyingThread.store(0, ordering: .relaxed) }
            var value = self.value
            guard try body(&value) else { return (.none, value) }
            return (engine.publishing(value), value)
        }
        if case .none = action { return false }
        engine.carryOut(action, of: value)
        return true
    }
}

extension BehaviorSubject where Element: Equatable {
    /// Publishes `value` only if it differs from ``value``; returns whether it did.
    ///
    /// The comparison and the publish are one atomic step, ordered with ``modify(_:)`` and other calls of this
    /// method (a plain ``publish(_:)`` racing with it is not). For a stream that never repeats a value, whoever
    /// publishes, use `removeDuplicates()` on the subscriber's side instead.
    ///
    /// - Parameter value: The candidate new value.
    /// - Returns: Whether `value` was published: false when it equals the current value, or the subject completed.
    @discardableResult
    public func publishIfChanged(_ value: Element) -> Bool {
        modifyStep { current in
            guard current != value else { return false }
            current = value
            return true
        }
    }
}
