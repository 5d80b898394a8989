extension BehaviorSubject {
    /// Reads ``value``, lets `body` change it, and publishes the result once, as one atomic step.
    ///
    /// Concurrent `modify` and ``publishIfChanged(_:)`` calls on this subject each take effect on the value the
    /// previous one published, and every subscriber receives their results in the order they took effect: a hundred
    /// threads each adding one never lose an increment. No lock is held while `body` runs: the step reads ``value``,
    /// runs `body` on a copy, and publishes the result only if no other step of this subject took effect meanwhile;
    /// if one did, `body` runs again, on that step's result. So `body` may run more than once, and only its last run
    /// counts: keep it to computing the new value, or make what else it does safe to repeat (a publish to another
    /// subject, or a `modify` of one, happens once per run). A plain ``publish(_:)`` is not part of that order: one
    /// racing with a `modify`, or made inside its body, may be overwritten by it.
    ///
    /// No subscriber is called while `body` runs. What `body` starts on the calling thread (the delivery of a value
    /// it publishes to another subject, of a nested `modify` of one, of a completion, a replay to a new subscriber)
    /// waits until the step is over, as a publish from inside a callback waits for the value in flight; then it is
    /// delivered, in the order it was started and before this subject's own result, and before `modify` returns. So a
    /// subscriber reached that way may call `modify` on this subject: it takes effect after this step, on its result,
    /// and nothing is lost. Called from inside a callback, `modify` takes effect at once and its result is queued
    /// behind the value in flight, as any publish from a callback is.
    ///
    /// A `modify` or ``publishIfChanged(_:)`` of this subject made on the same thread while its own `body` runs
    /// (from `body` itself, or from code that calls back synchronously outside a subject's delivery, such as an
    /// `Observable` whose `subscribe` emits at once) can be ordered neither before this step nor after it, and is
    /// rejected: its body runs once, on ``value``, but nothing is published and ``value`` does not change, as after
    /// completion. It neither traps nor waits.
    ///
    /// If `body` throws, nothing is published and the value stays as it was; what it published to other subjects
    /// is delivered as usual. Once the subject has completed, `body` still runs, but nothing is published and
    /// ``value`` does not change.
    ///
    /// ```swift
    /// let counter = BehaviorSubject(0)
    /// counter.modify { $0 += 1 }   // subscribers see 1
    /// ```
    ///
    /// - Parameter body: Changes the value in place; its result is returned.
    /// - Returns: What `body` returned, on its last run.
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

    /// Reads the value, runs `body` on a copy of it, and publishes the changed value if `body` returns true and no
    /// other step took effect meanwhile (otherwise runs `body` again on the newer value); returns whether it
    /// published (not when `body` returned false, nor once the subject has completed, nor when rejected as nested).
    @usableFromInline
    func modifyStep<Failure: Error>(_ body: (inout Element) throws(Failure) -> Bool) throws(Failure) -> Bool {
        let commit = try ModifyScope.within { scope throws(Failure) in try attempt(body, in: scope) }
        guard let (action, value) = commit else { return false }
        // The outermost step carries it out now, after what its body started; a nested one postpones it too.
        engine.carryOut(action, of: value)
        return true
    }

    /// Runs `body` until its result takes effect; returns what to carry out after it, or nil if nothing was
    /// published.
    @inlinable
    func attempt<Failure: Error>(
        _ body: (inout Element) throws(Failure) -> Bool, in scope: UnsafeMutablePointer<ModifyScope>
    ) throws(Failure) -> (SubjectEngine<Element>.Action, Element)? {
        let me = ObjectIdentifier(self)
        guard !scope.pointee.isRunning(me) else {
            // Nested in a body of this subject on this thread: neither before nor after that step, so rejected.
            var value = self.value
            _ = try body(&value)
            return nil
        }
        scope.pointee.enter(me)
        defer { scope.pointee.leave() }
        while true {
            let (start, modifications) = engine.state.withLock { ($0.current!, $0.modifications) }
            var value = start
            guard try body(&value) else { return nil }
            // Nil: another step took effect since the read; run the body again on its result.
            guard let action = engine.publishing(value, ifModifications: modifications) else { continue }
            if case .none = action { return nil }
            return (action, value)
        }
    }
}

extension BehaviorSubject where Element: Equatable {
    /// Publishes `value` only if it differs from ``value``; returns whether it did.
    ///
    /// The comparison and the publish are one atomic step of ``modify(_:)``, with its rules: ordered with other
    /// `modify` steps and calls of this method (a plain ``publish(_:)`` racing with it is not), no lock held while
    /// `==` runs, which may run again when another step took effect meanwhile, and rejected (returning false) when
    /// made on the same thread while a `modify` body of this subject runs. For a stream that never repeats a value,
    /// whoever publishes, use `removeDuplicates()` on the subscriber's side instead.
    ///
    /// - Parameter value: The candidate new value.
    /// - Returns: Whether `value` was published: false when it equals the current value, when the subject completed,
    ///   or when rejected as nested in a `modify` body of this subject.
    @discardableResult
    public func publishIfChanged(_ value: Element) -> Bool {
        modifyStep { current in
            guard current != value else { return false }
            current = value
            return true
        }
    }
}
