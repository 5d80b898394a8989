import CVigilCore

/// What a thread keeps while it runs ``BehaviorSubject/modify(_:)`` bodies: the deliveries they started, held
/// until its outermost step is over, and the subjects whose bodies are running.
///
/// A body is user code: it may publish to other subjects and modify them. A subscriber called from inside it could
/// call `modify` on the subject whose body is still running, and that call can be ordered neither before the step
/// (whose body already read the value) nor after it (which has not ended). So no subscriber is called inside a body:
/// every delivery the thread would start there (the engine asks ``isOpen``) is handed to ``postpone(_:)``, and the
/// outermost `modify` starts them, in the order they were decided, once its step is over and the thread is outside
/// every body. The scope lives on the stack of that outermost call; a thread-local pointer (`VigilModifyScope.h`)
/// reaches it, and only its own thread ever does.
@usableFromInline
struct ModifyScope {
    /// Deliveries decided inside a body, in order; each starts once the outermost step is over.
    @usableFromInline var postponed: [() -> Void] = []
    /// The subject of the outermost step, while its body runs; held inline, so a step that nests nothing allocates
    /// nothing here.
    @usableFromInline var outermost: ObjectIdentifier?
    /// The subjects of the nested steps whose bodies are running, outer first.
    @usableFromInline var nested: [ObjectIdentifier] = []

    @inlinable
    init() {}

    /// Whether a `modify` body of `subject` is running on this thread.
    @inlinable
    func isRunning(_ subject: ObjectIdentifier) -> Bool {
        outermost == subject || nested.contains(subject)
    }

    /// Records that a body of `subject` starts running.
    @inlinable
    mutating func enter(_ subject: ObjectIdentifier) {
        if outermost == nil { outermost = subject } else { nested.append(subject) }
    }

    /// Records that the body entered last has returned or thrown.
    @inlinable
    mutating func leave() {
        if nested.isEmpty { outermost = nil } else { nested.removeLast() }
    }

    /// Whether the calling thread is inside a `modify` body, so deliveries it would start must be postponed.
    @inlinable
    static var isOpen: Bool { vigil_modify_scope() != nil }

    /// The calling thread's open scope, if any.
    @inlinable
    static var current: UnsafeMutablePointer<ModifyScope>? {
        vigil_modify_scope()?.assumingMemoryBound(to: ModifyScope.self)
    }

    /// Hands `delivery` to the calling thread's open scope, to start once its outermost step is over.
    ///
    /// Call only when ``isOpen``.
    @inlinable
    static func postpone(_ delivery: @escaping () -> Void) {
        current!.pointee.postponed.append(delivery)
    }

    /// Runs `step` inside the calling thread's scope, opening one if none is open; the call that opened it closes
    /// it after `step` (returned or threw) and then starts what was postponed, outside every body.
    @inlinable
    static func within<Result, Failure: Error>(
        _ step: (UnsafeMutablePointer<ModifyScope>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        if let scope = current { return try step(scope) }
        var scope = ModifyScope()
        defer {
            // Closed by now: a subscriber called from here that modifies opens a scope of its own.
            for delivery in scope.postponed { delivery() }
        }
        return try withUnsafeMutablePointer(to: &scope) { scope throws(Failure) -> Result in
            vigil_modify_scope_set(scope)
            defer { vigil_modify_scope_set(nil) }
            return try step(scope)
        }
    }
}
