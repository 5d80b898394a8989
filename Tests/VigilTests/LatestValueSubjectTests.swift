import Testing

@testable import Vigil

/// The subject behind `share(replay: 1)`: what a `ReplaySubject` of one value gives each subscriber, at a subject's
/// cost. Compared with a `ReplaySubject(bufferSize: 1)` fed the same events.
@Suite(.timeLimit(.minutes(10))) struct LatestValueSubjectTests {
    /// What a subscriber saw: its values, then its completion if any.
    private func seen(_ recorder: Recorder<Int>) -> String {
        "\(recorder.values) \(recorder.completionsReceived.map { "\($0)" })"
    }

    /// Feeds `values` and then `completion` (if any) to both subjects, subscribing a recorder to each at the points
    /// `joins` gives (indices into the events: 0 before the first value); returns what each recorder saw.
    private func compare(values: [Int], completion: Completion?, joins: [Int]) -> (latest: [String], replay: [String]) {
        let latest = LatestValueSubject<Int>()
        let replay = ReplaySubject<Int>(bufferSize: 1)
        var latestRecorders: [Recorder<Int>] = []
        var replayRecorders: [Recorder<Int>] = []
        var subscriptions: [Subscription] = []
        func join(at point: Int) {
            for _ in joins.filter({ $0 == point }) {
                let (a, b) = (Recorder<Int>(), Recorder<Int>())
                subscriptions.append(a.subscribe(to: latest))
                subscriptions.append(b.subscribe(to: replay))
                latestRecorders.append(a)
                replayRecorders.append(b)
            }
        }
        for (index, value) in values.enumerated() {
            join(at: index)
            latest.feed(value)
            replay.publish(value)
        }
        join(at: values.count)
        if let completion {
            latest.terminate(with: completion)
            replay.terminate(with: completion)
            join(at: values.count + 1)
        }
        defer { subscriptions.forEach { $0.dispose() } }
        return (latestRecorders.map(seen), replayRecorders.map(seen))
    }

    @Test func aNewcomerGetsTheNewestValueThenEveryLaterOneAndNothingBeforeTheFirst() {
        let (latest, replay) = compare(values: [1, 2, 3], completion: nil, joins: [0, 1, 3])
        #expect(latest == ["[1, 2, 3] []", "[1, 2, 3] []", "[3] []"])
        #expect(latest == replay)
    }

    @Test func aNewcomerAfterTheEndGetsTheNewestValueThenTheEnd() {
        // A behavior subject's engine gives a late subscriber the end alone; a replay of one gives the value first.
        let (latest, replay) = compare(values: [1, 2], completion: .finished, joins: [1, 3])
        #expect(latest == ["[1, 2] [\"finished\"]", "[2] [\"finished\"]"])
        #expect(latest == replay)
    }

    @Test func aNewcomerAfterAnEndWithNoValueGetsTheEndAlone() {
        let (latest, replay) = compare(values: [], completion: .failed(Failure()), joins: [1])
        #expect(latest.count == 1 && latest[0].hasPrefix("[] [\"failed"))
        #expect(latest == replay)
    }

    private struct Failure: Error {}
}
