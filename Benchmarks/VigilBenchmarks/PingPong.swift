import Dispatch
import Synchronization
import Vigil

/// Two subjects feeding each other from two threads; total deliveries per second.
///
/// Thread A publishes values into subject 1 and thread B into subject 2. Each value is its hop count: subject 1's
/// subscriber publishes every value it receives, less one, into subject 2, and subject 2's subscriber likewise into
/// subject 1, until the count reaches 0. A round stops by itself after `values` values per thread and `hops` hops
/// each, or when its time limit passes (then it reports the rate reached by then).
func runPingPong(_ options: Options, _ report: Report) {
    let scenario = "pingpong"
    guard options.includes(scenario) else { return }
    let values = options.quick ? 20 : 1000
    let hops = options.quick ? 100 : 1000
    let timeLimit: UInt64 = options.quick ? 200_000_000 : 2_000_000_000
    let parameter = "hops=\(hops)"

    let limit = measurePingPongLimit(values: values, hops: hops, rounds: options.rounds)
    report.add(
        scenario, parameter, "limit", unit: "ns/delivery", limit, limit: limit,
        note:
            "\(formatRate(1e9 / limit.median)); the same hops as direct calls on each thread, \(values) values a thread"
    )

    // A warm-up round, then the measured rounds; once a round hits the time limit, no further rounds run.
    var samples: [Double] = []
    var limited = false
    for round in 0...options.rounds {
        let result = pingPongRound(values: values, hops: hops, timeLimit: timeLimit)
        if round > 0 || result.timedOut { samples.append(Double(result.elapsed) / Double(max(result.deliveries, 1))) }
        if result.timedOut {
            limited = true
            break
        }
    }
    let vigil = Samples(values: samples)
    var note = formatRate(1e9 / vigil.median) + ", \(values) values a thread"
    if limited {
        note += "; a round hit the \(timeLimit / 1_000_000) ms time limit: rate reached by then, no further rounds"
    }
    report.add(scenario, parameter, "vigil", unit: "ns/delivery", vigil, limit: limit, note: note)
}

/// A rate as "N M deliveries/s", with the plain rate beside it when it is below 0.1 M/s so it does not print as 0.
func formatRate(_ perSecond: Double) -> String {
    let millions = perSecond / 1e6
    if millions >= 0.1 { return format(millions) + " M deliveries/s" }
    let whole = String(Int(perSecond.rounded()))
    let fraction = String(repeating: "0", count: max(0, 6 - whole.count)) + whole
    return "0.\(fraction) M deliveries/s (\(whole) deliveries/s)"
}

/// The state both subscribers and the timer share.
private final class PingPongState: Sendable {
    let first = PublishSubject<Int>()
    let second = PublishSubject<Int>()
    /// Deliveries to the subscriber of `first` and of `second`: each written only from its subscriber's callbacks,
    /// which never overlap, so a relaxed load and store suffice.
    let firstDeliveries = Atomic<Int>(0)
    let secondDeliveries = Atomic<Int>(0)
    /// Set when the time limit passes: publishers stop publishing and subscribers stop forwarding.
    let stop = Atomic<Bool>(false)

    var deliveries: Int {
        firstDeliveries.load(ordering: .relaxed) + secondDeliveries.load(ordering: .relaxed)
    }
}

private func pingPongRound(values: Int, hops: Int, timeLimit: UInt64) -> (
    elapsed: UInt64, deliveries: Int, timedOut: Bool
) {
    let state = PingPongState()
    let forward = state.first.subscribe { [state] hopsLeft in
        state.firstDeliveries.store(state.firstDeliveries.load(ordering: .relaxed) + 1, ordering: .relaxed)
        if hopsLeft > 0 && !state.stop.load(ordering: .relaxed) { state.second.publish(hopsLeft - 1) }
    }
    let back = state.second.subscribe { [state] hopsLeft in
        state.secondDeliveries.store(state.secondDeliveries.load(ordering: .relaxed) + 1, ordering: .relaxed)
        if hopsLeft > 0 && !state.stop.load(ordering: .relaxed) { state.first.publish(hopsLeft - 1) }
    }
    let start = now()
    let threads = ThreadGroup(2) { [state] thread in
        let subject = thread == 0 ? state.first : state.second
        for _ in 0..<values {
            if state.stop.load(ordering: .relaxed) { break }
            subject.publish(hops)
        }
    }
    let result: (elapsed: UInt64, deliveries: Int, timedOut: Bool)
    if threads.wait(timeout: .now() + .nanoseconds(Int(timeLimit))) {
        result = (now() - start, state.deliveries, false)
        threads.join()
    } else {
        result = (now() - start, state.deliveries, true)
        state.stop.store(true, ordering: .relaxed)
        // Each thread now finishes the publish it is in; nothing is forwarded any more.
        if threads.wait(timeout: .now() + .seconds(10)) {
            threads.join()
        } else {
            print("WARNING: pingpong: publishers still running 10 s after the stop; leaving them")
            threads.detach()
            // Disposing now (dropping a subscription disposes it too) could wait for a callback that never returns:
            // leak both subscriptions instead.
            _ = Unmanaged.passRetained(forward)
            _ = Unmanaged.passRetained(back)
            return result
        }
    }
    forward.dispose()
    back.dispose()
    return result
}

/// One end of the limit's exchange: counts what it receives.
private final class PingPongSink {
    var deliveries = 0

    @inline(never)
    func receive(_ hopsLeft: Int) {
        deliveries &+= 1
    }
}

/// The limit: each thread runs its own values' hops as direct calls alternating between two sinks of its own.
private func measurePingPongLimit(values: Int, hops: Int, rounds: Int) -> Samples {
    let deliveries = 2 * values * (hops + 1)
    return sample(rounds: rounds, operations: deliveries) {
        onThreads(2) { _ in
            let delivered = pingPongDirect(values: values, hops: hops)
            precondition(delivered == values * (hops + 1), "pingpong limit: wrong delivery count")
        }
    }
}

@inline(never)
private func pingPongDirect(values: Int, hops: Int) -> Int {
    let sinks = (PingPongSink(), PingPongSink())
    for _ in 0..<values {
        var hopsLeft = hops
        while true {
            sinks.0.receive(hopsLeft)
            if hopsLeft == 0 { break }
            hopsLeft -= 1
            sinks.1.receive(hopsLeft)
            if hopsLeft == 0 { break }
            hopsLeft -= 1
        }
    }
    return sinks.0.deliveries + sinks.1.deliveries
}
