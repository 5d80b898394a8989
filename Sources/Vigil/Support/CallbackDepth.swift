import CVigilCore

/// Whether the calling thread is inside a Vigil delivery (a subject's or a mailbox's callback loop).
///
/// A publisher inside one never waits for its value, and ``Subscription/disposeAndWait()`` inside one never waits,
/// so callbacks that publish into or dispose each other's subscriptions, on any number of threads, cannot deadlock.
@usableFromInline
enum CallbackDepth {
    /// Whether the calling thread is inside any Vigil delivery.
    @inlinable
    static var isInsideCallback: Bool { vigil_callback_depth() != 0 }

    /// How many Vigil deliveries the calling thread is inside: 1 in a callback whose publisher was outside all.
    @inlinable
    static var current: Int { Int(vigil_callback_depth()) }

    /// Runs `body` marked as a delivery on the calling thread.
    @inlinable
    static func delivering<Result>(_ body: () throws -> Result) rethrows -> Result {
        vigil_callback_depth_enter()
        defer { vigil_callback_depth_exit() }
        return try body()
    }
}
