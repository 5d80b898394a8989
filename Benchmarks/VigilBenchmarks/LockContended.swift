import Dispatch
import Synchronization
import Vigil

/// The package's futex lock against `Synchronization.Mutex` where they differ: contended acquisition and handover.
///
/// (a) Two threads increment a shared counter under the lock: nanoseconds per lock/unlock pair. (b) One thread
/// appends items one at a time to a locked array while another takes everything out in batches: nanoseconds per
/// item. The `synchronization` row is the reference of each.
func runLockContended(_ options: Options, _ report: Report) {
    let scenario = "lock.contended"
    guard options.includes(scenario) else { return }
    let increments = options.scaled(2_000_000)
    let items = options.scaled(2_000_000)

    let syncCounter = counterRounds(SynchronizationBox(0), perThread: increments, rounds: options.rounds)
    report.add(
        scenario, "2 threads counter", "synchronization", unit: "ns/pair", syncCounter, baseline: syncCounter,
        note: "\(format(1000 / syncCounter.median)) M pairs/s")
    let futexCounter = counterRounds(FutexBox(0), perThread: increments, rounds: options.rounds)
    report.add(
        scenario, "2 threads counter", "futex", unit: "ns/pair", futexCounter, baseline: syncCounter,
        note: "\(format(1000 / futexCounter.median)) M pairs/s")

    var syncBatches: [Double] = []
    let syncHandover = sampleTimed(rounds: options.rounds, operations: items) {
        let round = handoverRound(SynchronizationBox([Int]()), items: items)
        syncBatches.append(round.averageBatch)
        return round.elapsed
    }
    report.add(
        scenario, "handover", "synchronization", unit: "ns/item", syncHandover, baseline: syncHandover,
        note: "\(format(1000 / syncHandover.median)) M items/s, \(format(average(syncBatches))) items a batch")
    var futexBatches: [Double] = []
    let futexHandover = sampleTimed(rounds: options.rounds, operations: items) {
        let round = handoverRound(FutexBox([Int]()), items: items)
        futexBatches.append(round.averageBatch)
        return round.elapsed
    }
    report.add(
        scenario, "handover", "futex", unit: "ns/item", futexHandover, baseline: syncHandover,
        note: "\(format(1000 / futexHandover.median)) M items/s, \(format(average(futexBatches))) items a batch")
}

private func average(_ values: [Double]) -> Double {
    values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
}

/// A lock shared between threads, so one benchmark body can drive either implementation (specialized for each).
private protocol LockBox<Value>: AnyObject, Sendable {
    associatedtype Value
    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result
}

private final class FutexBox<Value: Sendable>: LockBox {
    let lock: FutexMutex<Value>

    init(_ value: sending Value) {
        lock = FutexMutex(value)
    }

    @inline(__always)
    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { body(&$0) }
    }
}

private final class SynchronizationBox<Value: Sendable>: LockBox {
    let lock: Synchronization.Mutex<Value>

    init(_ value: sending Value) {
        lock = Synchronization.Mutex(value)
    }

    @inline(__always)
    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { body(&$0) }
    }
}

/// Rounds of two threads each incrementing the shared counter `perThread` times; nanoseconds per pair.
private func counterRounds<Box: LockBox<Int>>(_ box: Box, perThread: Int, rounds: Int) -> Samples {
    sample(rounds: rounds, operations: 2 * perThread) {
        let before = box.withLock { $0 }
        onThreads(2) { _ in
            incrementMany(box, times: perThread)
        }
        let after = box.withLock { $0 }
        precondition(after - before == 2 * perThread, "lock.contended: lost increments")
    }
}

@inline(never)
private func incrementMany<Box: LockBox<Int>>(_ box: Box, times: Int) {
    for _ in 0..<times { box.withLock { $0 &+= 1 } }
}

/// One producer appending `items` values one at a time, one consumer swapping the whole array out until it has
/// taken all of them.
private func handoverRound<Box: LockBox<[Int]>>(_ box: Box, items: Int) -> (elapsed: UInt64, averageBatch: Double) {
    let batches = BatchCount()
    let start = now()
    onThreads(2) { role in
        if role == 0 {
            produce(box, items: items)
        } else {
            batches.value.store(consume(box, items: items), ordering: .relaxed)
        }
    }
    let elapsed = now() - start
    return (elapsed, Double(items) / Double(max(batches.value.load(ordering: .relaxed), 1)))
}

/// How many batches the consumer took, handed back from its thread.
private final class BatchCount: Sendable {
    let value = Atomic<Int>(0)
}

@inline(never)
private func produce<Box: LockBox<[Int]>>(_ box: Box, items: Int) {
    for item in 0..<items { box.withLock { $0.append(item) } }
}

/// Takes batches until `items` values have arrived, checking they arrive in order; returns how many non-empty
/// batches it took.
@inline(never)
private func consume<Box: LockBox<[Int]>>(_ box: Box, items: Int) -> Int {
    var taken = 0
    var batches = 0
    var spare: [Int] = []
    spare.reserveCapacity(1024)
    while taken < items {
        spare = box.withLock { list in
            let batch = list
            list = spare
            return batch
        }
        if spare.isEmpty { continue }
        precondition(spare.first == taken && spare.last == taken + spare.count - 1, "lock.contended: order lost")
        taken += spare.count
        batches += 1
        spare.removeAll(keepingCapacity: true)
    }
    return batches
}
