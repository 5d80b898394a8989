import Dispatch

/// Polls `condition` every 5 ms until it holds or `seconds` pass, sleeping between checks without holding a thread
/// of the concurrency pool; returns whether it held.
package func eventually(within seconds: Double = 10, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}

/// Polls `condition` every millisecond until it holds or `timeout` seconds pass, blocking the calling thread (use it
/// off the concurrency pool, see ``offThePool(_:)``, or for short waits); returns whether it held.
package func eventually(timeout: Double = 20, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
    let pause = DispatchSemaphore(value: 0)
    while ContinuousClock.now < deadline {
        if condition() { return true }
        _ = pause.wait(timeout: .now() + .milliseconds(1))
    }
    return condition()
}
