/// Zip's state for one subscription: a bounded queue of unpaired values per source.
///
/// A tuple is formed as soon as every queue has a value, so after each event at least one queue is empty. As in
/// RxSwift and Combine, it finishes when a source has finished and its queue is empty (no tuple can follow), fails
/// on the first failure, and fails with ``ZipOverflowError`` when a source gets more than `limit` values ahead.
struct ZipStateMachine<Value: Sendable>: SourceCombiningMachine {
    private var queues: [PendingQueue<Value>]
    private var finished: [Bool]
    private let limit: Int
    private var isDone = false

    init(sources: Int, limit: Int) {
        queues = Array(repeating: PendingQueue(), count: sources)
        finished = Array(repeating: false, count: sources)
        self.limit = Swift.max(limit, 1)
    }

    mutating func apply(_ event: IndexedSourceEvent<Value>) -> CombiningStep<[Value]> {
        guard !isDone else { return .none }
        switch event {
        case .value(let index, let value):
            return receive(value, from: index)
        case .finished(let index):
            finished[index] = true
            return queues[index].isEmpty ? end(.finished) : .none
        case .failed(let error):
            return end(.failed(error))
        }
    }

    private mutating func receive(_ value: Value, from index: Int) -> CombiningStep<[Value]> {
        guard !finished[index] else { return .none }
        let othersReady = queues.indices.allSatisfy { $0 == index || !queues[$0].isEmpty }
        guard othersReady else {
            guard queues[index].count < limit else {
                return end(.failed(ZipOverflowError(sourceIndex: index, limit: limit)))
            }
            queues[index].append(value)
            return .none
        }
        // Some queue is empty after every event; all others have a value, so it is this source's: the value
        // completes the oldest tuple.
        var tuple: [Value] = []
        tuple.reserveCapacity(queues.count)
        for source in queues.indices {
            tuple.append(source == index ? value : queues[source].popFirst()!)
        }
        let exhausted = queues.indices.contains { finished[$0] && queues[$0].isEmpty }
        return CombiningStep(output: tuple, completion: exhausted ? end(.finished).completion : nil)
    }

    private mutating func end(_ completion: Completion) -> CombiningStep<[Value]> {
        isDone = true
        queues = []
        return CombiningStep(output: nil, completion: completion)
    }
}
