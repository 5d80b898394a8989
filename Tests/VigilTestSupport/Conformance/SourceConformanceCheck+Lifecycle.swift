import Vigil
import VigilSensors

/// The clauses about starting twice, stopping, releasing, and a device that vanishes and returns.
extension SourceConformanceCheck {
    /// A second start of a running source does nothing, and eight threads starting one source at once leave it
    /// with what one start gives it: the same registrations on its loop, all removed by one stop.
    ///
    /// Two cores shared with other tests rarely run two of the eight starts at the same instant, so the concurrent
    /// start is repeated on fresh sources (``concurrentRounds``) until one round shows a second claim.
    func checkConcurrentDoubleStart() {
        var once: String?
        withFreshSource { source, log, probe in
            guard start(source, for: .doubleStart), settle(source, log, probe, .doubleStart) else { return }
            let first = probe.held().shape
            once = first
            guard start(source, for: .doubleStart) else { return }
            probe.barrier()
            let again = probe.held().shape
            if again != first {
                record(.doubleStart, "a second start registered \(again); one start registers \(first)")
            }
        }
        guard let once else { return }
        for _ in 0..<Self.concurrentRounds {
            var claimedOnce = true
            withFreshSource { source, log, probe in
                let failures = FutexMutex<[String]>([])
                concurrently(8) { _ in
                    do { try source.startMonitoring() } catch { failures.withLock { $0.append("\(error)") } }
                }
                if let failure = failures.withLock({ $0.first }) {
                    record(.doubleStart, "a concurrent start threw \(failure)")
                }
                guard settle(source, log, probe, .doubleStart) else { return }
                let concurrent = probe.held().shape
                if concurrent != once {
                    claimedOnce = false
                    record(
                        .doubleStart, "eight concurrent starts registered \(concurrent); one start registers \(once)")
                }
                source.stopMonitoring()
                probe.barrier()
                let left = probe.held()
                if !left.isEmpty { record(.doubleStart, "after the stop, the loop still holds \(left)") }
            }
            if !claimedOnce { return }
        }
    }

    /// A stop returns within 100 ms, leaves nothing of the source on its loop (so nothing can fire), and nothing is
    /// published after it returns, not even by `refresh()` while what it reads is gone.
    func checkPromptStop() {
        withFreshSource { source, log, probe in
            guard start(source, for: .promptStop), settle(source, log, probe, .promptStop) else { return }
            if source.updateInterval != nil { try? source.setUpdateInterval(.milliseconds(1)) }
            let stopping = ContinuousClock.now
            source.stopMonitoring()
            let took = ContinuousClock.now - stopping
            let published = log.count
            if took > Self.promptLimit { record(.promptStop, "stopping took \(took)") }
            if source.isMonitoring { record(.promptStop, "isMonitoring is true after the stop returned") }
            let left = probe.held()
            if !left.isEmpty { record(.promptStop, "after the stop returned, the loop still holds \(left)") }
            // What the source reads changes (where the setting can change it), so a read would publish.
            setting.outage?.begin()
            source.refresh()
            probe.barrier()
            setting.outage?.end()
            let late = log.entries(after: published)
            if !late.isEmpty {
                record(.promptStop, "published \(late.map { "\($0.reading)" }) after the stop returned")
            }
        }
    }

    /// A running source whose last reference goes stops: it is freed, its loop holds nothing of it, and every
    /// descriptor it had open (registered on its loop, or into the test's trees) is closed.
    func checkRelease() {
        guard let probe = makeProbe() else { return }
        defer { probe.shutdown() }
        weak var released: S?
        var held: [OpenDescriptor] = []
        var pins: [PinnedDescriptor] = []
        do {
            guard let source = makeSource(on: probe) else { return }
            released = source
            quicken(source)
            let log = ReadingLog(source)
            guard start(source, for: .release), settle(source, log, probe, .release) else { return }
            held = probe.registrations() + setting.descriptorsIntoOwnedRoots()
            // Timers and other anonymous descriptors look alike, so a reused number would pass for one left open.
            pins = held.filter(\.isAnonymous).pinned()
        }
        // A callback already running on the loop holds the source until it returns: awaited, not expected at once.
        guard waitUntil(within: setting.readingTimeout, { released == nil }) else {
            record(.release, "the running source outlived its last reference")
            released?.stopMonitoring()
            return
        }
        probe.barrier()
        let left = probe.held()
        if !left.isEmpty { record(.release, "the released source left \(left) on its loop") }
        let open = held.filter { !$0.isAnonymous && $0.isStillOpen } + setting.descriptorsIntoOwnedRoots()
        let openAnonymous = pins.filter(\.isStillOpen).map(\.descriptor)
        if !(open + openAnonymous).isEmpty {
            record(.release, "the released source left \(Set(open + openAnonymous)) open")
        }
    }

    /// Where the setting can take the source's device or tree away and the source's availability says so: with a
    /// long interval, `refresh()` reads the outage at once as `unavailable` with a reason and the return; at a short
    /// interval set while running, the timer is rescheduled, reads the outage by itself and recovers by itself.
    func checkOutageAndRecovery() {
        guard let outage = setting.outage else { return }
        withFreshSource { source, log, probe in
            outage.begin()
            let dependsOnIt = !source.availability.isAvailable
            outage.end()
            guard dependsOnIt else { return }
            guard start(source, for: .recovery), settle(source, log, probe, .recovery) else { return }
            let polled = source.updateInterval != nil
            if polled { try? source.setUpdateInterval(.seconds(3600)) }
            guard expectOutage(source, log, outage), polled else { return }
            let beforeShortInterval = log.count
            outage.begin()
            do {
                try source.setUpdateInterval(.milliseconds(5))
            } catch {
                outage.end()
                record(.updateInterval, "setting 5 ms threw \(error)")
                return
            }
            let rescheduled = waitUntil(within: setting.readingTimeout) {
                log.entries(after: beforeShortInterval).contains(where: Self.isUnavailable)
            }
            let cameBack = log.count
            outage.end()
            guard rescheduled else {
                record(.updateInterval, "after setting 5 ms while running, no read saw the outage: not rescheduled")
                return
            }
            let recovered = waitUntil(within: setting.readingTimeout) {
                log.entries(after: cameBack).contains(where: Self.isValue)
            }
            if !recovered { record(.recovery, "polling at 5 ms did not recover by itself when the tree came back") }
        }
    }

    /// Takes the tree away and calls `refresh()`: an `unavailable` reading with a reason must come; then brings it
    /// back and calls `refresh()`: a value must come. Returns whether the outage was read.
    private func expectOutage(_ source: S, _ log: ReadingLog<S.Reading>, _ outage: ConformanceSetting.Outage)
        -> Bool
    {
        let before = log.count
        outage.begin()
        source.refresh()
        let unavailable = waitUntil(within: setting.readingTimeout) {
            log.entries(after: before).contains(where: Self.isUnavailable)
        }
        let reading = log.entries(after: before).first(where: Self.isUnavailable)
        outage.end()
        guard unavailable, let reading else {
            let published = log.entries(after: before).map { "\($0.reading)" }
            record(.refresh, "refresh() with the tree gone published no unavailable reading: \(published)")
            return false
        }
        if case .unavailable(let reason) = ReadingInspection.status(of: reading.reading), reason.isEmpty {
            record(.recovery, "the unavailable reading gives no reason")
        }
        let cameBack = log.count
        source.refresh()
        let recovered = waitUntil(within: setting.readingTimeout) {
            log.entries(after: cameBack).contains(where: Self.isValue)
        }
        if !recovered { record(.recovery, "refresh() with the tree back published no value") }
        return true
    }

    static func isUnavailable(_ entry: ReadingLog<S.Reading>.Entry) -> Bool {
        if case .unavailable = ReadingInspection.status(of: entry.reading) { return true }
        return false
    }

    static func isValue(_ entry: ReadingLog<S.Reading>.Entry) -> Bool {
        ReadingInspection.status(of: entry.reading) == .other
    }
}
