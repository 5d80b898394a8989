import Dispatch
import Glibc

/// Command-line options of the suite.
struct Options {
    var quick = false
    var filter: String?
    var jsonPath: String?
    var soakSeconds: Int?

    static func parse(_ arguments: [String]) -> Options {
        var options = Options()
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--quick":
                options.quick = true
            case "--filter" where index + 1 < arguments.count:
                index += 1
                options.filter = arguments[index]
            case "--json" where index + 1 < arguments.count:
                index += 1
                options.jsonPath = arguments[index]
            case "--soak" where index + 1 < arguments.count:
                index += 1
                options.soakSeconds = Int(arguments[index])
            case "--help", "-h":
                print(
                    """
                    usage: swift run -c release VigilBenchmarks [--quick] [--filter NAME] [--json FILE] [--soak SECONDS]
                      --quick          a few-second smoke run (smaller workloads, fewer rounds)
                      --filter NAME    only scenarios whose name contains NAME
                      --json FILE      also write a machine-readable report to FILE
                      --soak SECONDS   run the soak test instead (descriptor, thread and memory growth)
                    """)
                exit(0)
            default:
                print("unknown argument: \(arguments[index]) (see --help)")
                exit(2)
            }
            index += 1
        }
        return options
    }

    /// Rounds measured after one warm-up round.
    var rounds: Int { quick ? 1 : 5 }

    /// Scales a workload down in quick mode (a smoke run of a few seconds: it checks that every scenario runs).
    func scaled(_ count: Int) -> Int { quick ? max(count / 200, 1) : count }

    func includes(_ scenario: String) -> Bool {
        guard let filter else { return true }
        return scenario.contains(filter)
    }
}

/// Per-operation timings of several rounds.
struct Samples {
    let values: [Double]

    var median: Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    var min: Double { values.min() ?? 0 }
    var max: Double { values.max() ?? 0 }
}

/// The monotonic clock in nanoseconds.
@inline(__always)
func now() -> UInt64 {
    DispatchTime.now().uptimeNanoseconds
}

/// Runs `body` once to warm up, then `rounds` times, and returns nanoseconds per operation of each round.
func sample(rounds: Int, operations: Int, _ body: () -> Void) -> Samples {
    body()
    var values: [Double] = []
    for _ in 0..<rounds {
        let start = now()
        body()
        values.append(Double(now() - start) / Double(operations))
    }
    return Samples(values: values)
}

/// Like ``sample(rounds:operations:_:)`` for a body that times itself and returns elapsed nanoseconds.
func sampleTimed(rounds: Int, operations: Int, _ body: () -> UInt64) -> Samples {
    _ = body()
    return Samples(values: (0..<rounds).map { _ in Double(body()) / Double(operations) })
}

/// Keeps a value observable so the optimizer cannot drop the work that produced it.
///
/// Not optimized, so whole-module optimization cannot see that it ignores its argument and drop the argument (and
/// with it the work that computed it) at the call sites.
@_optimize(none)
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// The text of a NUL-terminated C buffer.
func string(fromC buffer: [CChar]) -> String {
    buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}

/// Runs `body(index)` for each index on a thread of its own, all released together by a barrier, and joins them.
///
/// Dedicated threads, not `DispatchQueue.concurrentPerform`: that may run both iterations one after the other on the
/// calling thread when the pool's threads are busy, and then nothing contends (or a consumer waits forever for a
/// producer that runs after it).
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let threads = ThreadGroup(count, body)
    threads.join()
}

/// Threads started together, each running `body(index)`; ``wait(timeout:)`` waits for all of them with a limit.
final class ThreadGroup: Sendable {
    private let finished = DispatchGroup()
    private let handles: [pthread_t]

    init(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let barrier = ThreadBarrier(count: count)
        var handles: [pthread_t] = []
        for index in 0..<count {
            finished.enter()
            let start = ThreadStart(index: index, barrier: barrier, finished: finished, body: body)
            var handle = pthread_t()
            let result = pthread_create(
                &handle, nil,
                { raw in
                    let start = Unmanaged<ThreadStart>.fromOpaque(raw!).takeRetainedValue()
                    start.barrier.wait()
                    start.body(start.index)
                    start.finished.leave()
                    return nil
                }, Unmanaged.passRetained(start).toOpaque())
            precondition(result == 0, "pthread_create failed: \(result)")
            handles.append(handle)
        }
        self.handles = handles
    }

    /// Waits until every thread has returned from its body, or until `timeout` passes; true if all returned.
    func wait(timeout: DispatchTime) -> Bool {
        finished.wait(timeout: timeout) == .success
    }

    /// Waits for every thread to end.
    func join() {
        for handle in handles { pthread_join(handle, nil) }
    }

    /// Lets the threads end on their own, unjoined (for threads still running after a time limit).
    func detach() {
        for handle in handles { pthread_detach(handle) }
    }
}

/// What a new thread needs: which index it is, the barrier, the group to leave, and its body.
private final class ThreadStart: Sendable {
    let index: Int
    let barrier: ThreadBarrier
    let finished: DispatchGroup
    let body: @Sendable (Int) -> Void

    init(index: Int, barrier: ThreadBarrier, finished: DispatchGroup, body: @escaping @Sendable (Int) -> Void) {
        self.index = index
        self.barrier = barrier
        self.finished = finished
        self.body = body
    }
}

/// A `pthread_barrier_t` in a stable heap block.
///
/// `@unchecked Sendable`: a wrapper of a C resource, used only through `pthread_barrier_wait`, which is thread-safe.
private final class ThreadBarrier: @unchecked Sendable {
    private let barrier = UnsafeMutablePointer<pthread_barrier_t>.allocate(capacity: 1)

    init(count: Int) {
        pthread_barrier_init(barrier, nil, UInt32(count))
    }

    func wait() {
        pthread_barrier_wait(barrier)
    }

    deinit {
        pthread_barrier_destroy(barrier)
        barrier.deallocate()
    }
}
