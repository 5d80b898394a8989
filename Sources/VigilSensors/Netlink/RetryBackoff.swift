/// The delay before a failed netlink socket is reopened: 100 ms, doubling with each failure in a row, at most 30 s.
struct RetryBackoff {
    static let first = Duration.milliseconds(100)
    static let limit = Duration.seconds(30)

    private var next = Self.first

    /// The delay to wait now; the next one is twice as long, up to ``limit``.
    mutating func take() -> Duration {
        defer { next = min(next * 2, Self.limit) }
        return next
    }

    /// Starts over after a success.
    mutating func reset() { next = Self.first }
}
