/// The failure of a stream that ``ObservableType/timeout(_:tolerance:clock:)`` ended: no value came in time.
public struct TimeoutError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The longest wait the operator allowed, after subscribing and after each value.
    public let interval: Duration

    /// Creates the error for a timeout of `interval`.
    public init(interval: Duration) {
        self.interval = interval
    }

    public var description: String {
        "no value within \(interval)"
    }
}
