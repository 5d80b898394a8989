import Vigil

/// A ``Monitor`` with a human name, an availability check and readings to subscribe to.
///
/// Readings are a `BehaviorSubject` when the latest reading is a state worth caching (a battery level, the network
/// path) and a `PublishSubject` when they are events (a file changed, a device was added).
///
/// A custom source needs a name, an availability check, a subject, and start/stop that feed the subject; see the
/// README for a short example.
public protocol Source: Monitor {
    /// The type of one reading.
    associatedtype Reading: Sendable
    /// The subject or observable that carries the readings.
    associatedtype Readings: ObservableType<Reading>

    /// A short human name, for example "Battery" or "Network".
    var name: String { get }

    /// Whether this source can run on this machine, checked without starting it.
    var availability: Availability { get }

    /// The readings; subscribe before or after starting.
    var readings: Readings { get }
}
