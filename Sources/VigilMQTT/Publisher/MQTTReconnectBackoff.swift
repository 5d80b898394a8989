/// The delay before the next connection attempt: exponential from ``first`` up to ``limit``, each delay drawn at
/// random between half and all of its step ("equal jitter"), so a fleet that lost its broker together does not
/// reconnect in lockstep.
struct MQTTReconnectBackoff: Sendable {
    let first: Duration
    let limit: Duration
    private var step: Duration

    init(first: Duration, limit: Duration) {
        self.first = max(first, .milliseconds(1))
        self.limit = max(limit, self.first)
        step = self.first
    }

    /// The delay to wait now; the next step is twice as long, up to ``limit``.
    mutating func take<Random: RandomNumberGenerator>(using random: inout Random) -> Duration {
        defer { step = min(step * 2, limit) }
        let half = step / 2
        let jitter = Double.random(in: 0...1, using: &random)
        return half + half * jitter
    }

    /// The delay to wait now, with the system's random numbers.
    mutating func take() -> Duration {
        var random = SystemRandomNumberGenerator()
        return take(using: &random)
    }

    /// Starts over after a connection the broker accepted.
    mutating func reset() { step = first }
}
