import Vigil

/// Notices that the machine woke from a suspend, for every source of one event loop that must re-read after a wake.
///
/// Each ``EventLoop`` has one (``EventLoop/wakeWatch``). While it has subscribers it keeps one realtime
/// cancel-on-set timer on the loop (see ``CancelOnSetTimer``); the kernel cancels that timer on every resume, and on
/// each cancellation the watch compares the clocks (``check()``). A wake found, by that wake-up or by a ``check()``
/// from a source's own timer (``SleepMonitor`` checks every interval, in case a wake-up was missed), goes to every
/// subscriber with the time slept; a wall-clock set moves the realtime clock only, so it reaches nobody. The last
/// subscriber to leave closes the timer, so an idle loop holds nothing of it.
///
/// Subscribers are called on the loop thread for a timer wake-up, or on the thread that called ``check()``; never
/// under a lock.
package final class WakeWatch: Sendable {
    /// One subscriber's place; ``cancel()`` ends it, and the last one to end closes the timer.
    package struct Listener: Sendable {
        private let end: @Sendable () -> Void

        init(end: @escaping @Sendable () -> Void) { self.end = end }

        /// Ends the subscription; calling it again does nothing.
        package func cancel() { end() }
    }

    private struct Timer {
        let descriptor: FileDescriptor
        let registration: EventLoop.Registration
    }

    private struct State {
        var clockPairs: @Sendable () -> ClockPair = { ClockPair.now() }
        var detector: WakeDetector?
        var handlers: [UInt64: @Sendable (Duration) -> Void] = [:]
        var nextID: UInt64 = 0
        /// A subscriber is creating the timer (outside the lock); others do not create a second one.
        var arming = false
        var timer: Timer?
        /// Wakes found since the watch was created, for tests.
        var wakes = 0
        /// Whether a test injected the clocks (``useClockPairs(_:)``).
        var clocksInjected = false
    }

    private let state = FutexMutex(State())

    init() {}

    /// Reads the clock pair the way the watch does: the kernel's clocks, or what a test injected.
    package func clockPair() -> ClockPair {
        let read = state.withLock { $0.clockPairs }
        return read()
    }

    /// Replaces the clocks the watch reads, so tests drive wakes with exact pairs; the next pair read becomes the
    /// reference. From then on the kernel's own cancellations of the timer compare nothing (see `timerReady`).
    package func useClockPairs(_ read: @escaping @Sendable () -> ClockPair) {
        let pair = read()
        state.withLock { state in
            state.clockPairs = read
            state.clocksInjected = true
            if state.detector != nil { state.detector = WakeDetector(pair) }
        }
    }

    /// The time suspended since boot as of the last wake found (or of the first subscription), or nil while nobody
    /// subscribes; steady between wakes, unlike a fresh read with its jitter.
    package var suspended: Duration? { state.withLock { $0.detector?.reference } }

    /// How many wakes the watch has found, for tests.
    package var wakeCount: Int { state.withLock { $0.wakes } }

    /// Whether the cancel-on-set timer is open (someone subscribes), for tests.
    package var isArmed: Bool { state.withLock { $0.timer != nil } }

    /// Calls `handler` with the time slept after each wake found from now on; the first subscriber opens the timer.
    ///
    /// - Parameters:
    ///   - loop: The loop that watches the timer (this watch's own loop).
    ///   - handler: Called with the time slept, on the loop thread or the thread of ``check()``, never under a lock.
    /// - Returns: The subscriber's listener; cancel it when the subscriber stops.
    /// - Throws: The ``SensorError`` of `timerfd_create(2)` or of the loop when the first subscriber cannot open the
    ///   timer; nothing is subscribed then.
    package func subscribe(
        on loop: EventLoop, _ handler: @escaping @Sendable (Duration) -> Void
    ) throws(SensorError) -> Listener {
        let pair = clockPair()
        let (id, mustArm) = state.withLock { state -> (UInt64, Bool) in
            state.nextID += 1
            state.handlers[state.nextID] = handler
            if state.detector == nil { state.detector = WakeDetector(pair) }
            let mustArm = state.timer == nil && !state.arming
            if mustArm { state.arming = true }
            return (state.nextID, mustArm)
        }
        let listener = Listener { [weak self] in self?.unsubscribe(id) }
        guard mustArm else { return listener }
        do {
            try arm(on: loop)
        } catch {
            listener.cancel()
            throw error
        }
        return listener
    }

    /// Compares the clocks now and tells every subscriber of a wake since the last one found.
    package func check() {
        let pair = clockPair()
        let (slept, handlers) = state.withLock { state -> (Duration?, [@Sendable (Duration) -> Void]) in
            guard var detector = state.detector else { return (nil, []) }
            guard let slept = detector.observe(pair) else { return (nil, []) }
            state.detector = detector
            state.wakes += 1
            return (slept, Array(state.handlers.values))
        }
        guard let slept else { return }
        for handler in handlers { handler(slept) }
    }

    /// Opens the timer and registers it; keeps it only while someone still subscribes.
    private func arm(on loop: EventLoop) throws(SensorError) {
        let timer: Timer
        do throws(SensorError) {
            let descriptor = try CancelOnSetTimer.make()
            let fd = descriptor.rawValue
            do throws(SensorError) {
                let registration = try loop.register(fileDescriptor: fd, interest: .readable) { [weak self] _ in
                    self?.timerReady(fd)
                }
                timer = Timer(descriptor: descriptor, registration: registration)
            } catch {
                descriptor.close()
                throw error
            }
        } catch {
            state.withLock { $0.arming = false }
            throw error
        }
        let kept = state.withLock { state -> Bool in
            state.arming = false
            guard !state.handlers.isEmpty else { return false }
            state.timer = timer
            return true
        }
        if !kept { Self.close(timer) }
    }

    /// Ends subscription `id`; the last one closes the timer (after the lock: cancelling waits for a running
    /// handler, which takes the lock).
    private func unsubscribe(_ id: UInt64) {
        let closing = state.withLock { state -> Timer? in
            guard state.handlers.removeValue(forKey: id) != nil, state.handlers.isEmpty else { return nil }
            state.detector = nil
            defer { state.timer = nil }
            return state.timer
        }
        if let closing { Self.close(closing) }
    }

    /// The timer is readable: read it and handle what the read found.
    private func timerReady(_ fd: Int32) {
        let outcome = CancelOnSetTimer.read(fd)
        // With injected clocks, a real cancellation (the machine's clock set, a virtual machine resumed) says nothing
        // about the clocks the test drives, which would show its pretended sleep as a wake at that moment: the timer
        // is re-armed, and only ``simulateCancellation(on:)`` stands for a cancellation.
        if outcome == .canceled || outcome == .expired, state.withLock({ $0.clocksInjected }) {
            do throws(SensorError) {
                try CancelOnSetTimer.arm(fd)
            } catch {
                closeTimer()
            }
            return
        }
        handle(outcome, fd)
    }

    /// Makes the timer's next handling see a cancellation, as a resume or a clock set causes, on the loop thread;
    /// does nothing while the timer is closed.
    package func simulateCancellation(on loop: EventLoop) {
        guard let fd = state.withLock({ $0.timer?.descriptor.rawValue }) else { return }
        _ = try? loop.schedule(after: .zero) { [weak self] in
            guard let self, self.state.withLock({ $0.timer?.descriptor.rawValue == fd }) else { return }
            self.handle(.canceled, fd)
        }
    }

    /// A cancellation (a resume or a clock set) or an expiry re-arms the timer, then compares the clocks.
    ///
    /// A read that fails otherwise closes the timer rather than leave a descriptor that is always ready: subscribers
    /// then learn of wakes only from ``check()``.
    private func handle(_ outcome: CancelOnSetTimer.Outcome, _ fd: Int32) {
        switch outcome {
        case .nothing:
            return
        case .canceled, .expired:
            do throws(SensorError) {
                try CancelOnSetTimer.arm(fd)
            } catch {
                closeTimer()
            }
            check()
        case .failed:
            closeTimer()
            check()
        }
    }

    /// Closes the timer while subscribers remain (a failed read or re-arm); a later first subscriber opens a new one.
    private func closeTimer() {
        let closing = state.withLock { state -> Timer? in
            defer { state.timer = nil }
            return state.timer
        }
        if let closing { Self.close(closing) }
    }

    /// Unregisters the timer (waiting for a running handler, unless on the loop thread), then closes it.
    private static func close(_ timer: Timer) {
        timer.registration.cancel()
        timer.descriptor.close()
    }
}
