import Vigil
import VigilSensors

/// Everything a source published to one subscriber, with what ``Source/latest`` said as each reading arrived.
package final class ReadingLog<Reading: Sendable>: Sendable {
    /// One published reading.
    package struct Entry: Sendable {
        package let reading: Reading
        /// ``Source/latest`` read inside the callback, as JSON (nil when it was nil).
        package let latestThen: String?
        /// When the subscriber got it.
        package let received: ContinuousClock.Instant
    }

    private let state = FutexMutex<(entries: [Entry], completion: String?)>(([], nil))
    private let subscription: FutexMutex<Subscription?> = FutexMutex(nil)

    /// Subscribes to `source` (immediate delivery); the log holds `source` weakly.
    package init<S: Source>(_ source: S) where S.Reading == Reading {
        let subscription = source.readings.subscribe(
            on: .immediate,
            onNext: { [weak self, weak source] reading in
                let latest = source?.latest.map { ReadingInspection.identity(of: $0) }
                let entry = Entry(reading: reading, latestThen: latest, received: .now)
                self?.state.withLock { $0.entries.append(entry) }
            },
            onCompletion: { [weak self] completion in
                self?.state.withLock { $0.completion = "\(completion)" }
            })
        self.subscription.withLock { $0 = subscription }
    }

    /// Stops recording.
    package func dispose() {
        let subscription = self.subscription.withLock { $0.take() }
        subscription?.dispose()
    }

    deinit { subscription.withLock { $0 }?.dispose() }

    /// The readings so far.
    package var entries: [Entry] { state.withLock { $0.entries } }
    /// How many readings so far.
    package var count: Int { state.withLock { $0.entries.count } }
    /// The completion the subject delivered, if any: a source never completes or fails its readings.
    package var completion: String? { state.withLock { $0.completion } }

    /// The readings after the first `count`.
    package func entries(after count: Int) -> [Entry] {
        Array(entries.dropFirst(count))
    }
}
