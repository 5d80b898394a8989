import Dispatch
import Vigil

/// Per-publish latency: two publisher threads, ten immediate subscribers each doing about 200 ns of work.
///
/// Each publish is timed from just before `publish` to its return, on both threads; the reference is the same two
/// threads calling the ten work functions directly, under no lock. A row's median is the p50 latency, its min–max
/// the fastest and slowest publish; the note gives p50, p99, p99.9 and max.
func runPublishLatency(_ options: Options, _ report: Report) {
    let scenario = "publish.latency"
    guard options.includes(scenario) else { return }
    let perThread = options.quick ? 500 : 50_000
    let iterations = calibrateWork(nanoseconds: 200)
    let workers = (0..<10).map { _ in Worker(iterations: iterations) }
    let workNote = "work \(format(measureWork(workers[0]))) ns (\(iterations) iterations)"

    // One warm-up round each, then one measured round of `perThread` publishes per thread.
    _ = directLatencies(workers, perThread: perThread / 10)
    let direct = Percentiles(directLatencies(workers, perThread: perThread))
    _ = vigilLatencies(workers, perThread: perThread / 10)
    let vigil = Percentiles(vigilLatencies(workers, perThread: perThread))

    report.add(
        scenario, "N=10", "direct calls 2 publishers", unit: "ns/publish", direct.samples, baseline: direct.samples,
        note: direct.description + "; " + workNote)
    report.add(
        scenario, "N=10", "vigil 2 publishers", unit: "ns/publish", vigil.samples, baseline: direct.samples,
        note: vigil.description + "; p99 ÷ direct p99: \(format(vigil.p99 / direct.p99))×")
}

/// A subscriber's work: a spin loop of a calibrated length on a local, kept by ``blackHole(_:)``.
private final class Worker: Sendable {
    let iterations: Int

    init(iterations: Int) {
        self.iterations = iterations
    }

    @inline(never)
    func run(_ seed: Int) {
        var state = seed
        for _ in 0..<iterations { state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
        blackHole(state)
    }
}

/// The iteration count that makes ``Worker/run(_:)`` take about `nanoseconds` on this machine (least of 3 tries).
private func calibrateWork(nanoseconds: Double) -> Int {
    let probe = Worker(iterations: 1000)
    let perIteration = (0..<3).map { _ in measureWork(probe) / 1000 }.min()!
    return max(1, Int((nanoseconds / perIteration).rounded()))
}

/// Nanoseconds one call of `worker.run` takes, averaged over 2,000 calls.
private func measureWork(_ worker: Worker) -> Double {
    let calls = 2000
    let start = now()
    for call in 0..<calls { worker.run(call) }
    return Double(now() - start) / Double(calls)
}

/// Latencies of both threads, each calling the ten work functions directly for every value.
private func directLatencies(_ workers: [Worker], perThread: Int) -> [UInt64] {
    timedOnTwoThreads(perThread: perThread) { value in
        for worker in workers { worker.run(value) }
    }
}

/// Latencies of both threads publishing into one subject whose ten subscribers run the work.
private func vigilLatencies(_ workers: [Worker], perThread: Int) -> [UInt64] {
    let subject = PublishSubject<Int>()
    let subscriptions = workers.map { worker in subject.subscribe { worker.run($0) } }
    defer { subscriptions.forEach { $0.dispose() } }
    return timedOnTwoThreads(perThread: perThread) { subject.publish($0) }
}

/// Runs `operation` `perThread` times on each of two threads and returns every call's duration in nanoseconds.
private func timedOnTwoThreads(perThread: Int, _ operation: @escaping @Sendable (Int) -> Void) -> [UInt64] {
    let buffers = LatencyBuffers(threads: 2, perThread: perThread)
    onThreads(2) { thread in
        let latencies = buffers.storage[thread]
        for index in 0..<perThread {
            let start = now()
            operation(thread << 32 | index)
            latencies[index] = now() - start
        }
    }
    return buffers.all()
}

/// One preallocated buffer of latencies per thread.
///
/// Benchmark-only `@unchecked Sendable`: each thread writes only its own buffer, and ``all()`` reads them after
/// the threads have been joined.
private final class LatencyBuffers: @unchecked Sendable {
    let storage: [UnsafeMutableBufferPointer<UInt64>]

    init(threads: Int, perThread: Int) {
        storage = (0..<threads).map { _ in
            let buffer = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: perThread)
            buffer.initialize(repeating: 0)
            return buffer
        }
    }

    func all() -> [UInt64] {
        storage.flatMap { Array($0) }
    }

    deinit {
        storage.forEach { $0.deallocate() }
    }
}

/// p50, p99, p99.9 and max of a set of latencies.
private struct Percentiles {
    let sorted: [Double]

    init(_ latencies: [UInt64]) {
        sorted = latencies.map { Double($0) }.sorted()
    }

    func percentile(_ fraction: Double) -> Double {
        sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }

    var p50: Double { percentile(0.5) }
    var p99: Double { percentile(0.99) }
    var p999: Double { percentile(0.999) }

    /// Fastest, p50 and slowest: the median of these is p50, and min–max spans every publish.
    var samples: Samples { Samples(values: [sorted.first!, p50, sorted.last!]) }

    var description: String {
        "p50 \(format(p50))  p99 \(format(p99))  p99.9 \(format(p999))  max \(format(sorted.last!)) (ns)"
    }
}
