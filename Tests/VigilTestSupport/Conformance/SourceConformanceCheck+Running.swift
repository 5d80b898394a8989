import Vigil
import VigilSensors

/// The clauses about a source before it starts and while it runs.
extension SourceConformanceCheck {
    /// Asking a made source whether it is available starts nothing, publishes nothing, leaves no descriptor and
    /// changes no file.
    func checkAvailabilityHasNoSideEffects() {
        let treesBefore = setting.ownedRoots.map(TreeSnapshot.init)
        withFreshSource { source, log, probe in
            let published = log.count
            for _ in 0..<2 {
                guard source.availability.isAvailable else {
                    record(.availability, "the made source says \(source.availability)")
                    return
                }
            }
            probe.barrier()
            if source.isMonitoring { record(.availability, "isMonitoring is true after an availability check") }
            if log.count != published {
                record(.availability, "published \(log.count - published) reading(s) without being started")
            }
            let held = probe.held()
            if !held.isEmpty { record(.availability, "left \(held) on the event loop") }
            let opened = setting.descriptorsIntoOwnedRoots()
            if !opened.isEmpty { record(.availability, "left \(opened) open") }
        }
        for (root, before) in zip(setting.ownedRoots, treesBefore) {
            let changes = TreeSnapshot(root).differences(from: before)
            if !changes.isEmpty { record(.availability, "changed files under \(root): \(changes.prefix(5))") }
        }
    }

    /// A state source's latest reading is `pending` before the start, and starting returns within 100 ms (the median
    /// of three fresh sources, so one scheduler hiccup on a loaded machine does not decide).
    func checkPromptStart() {
        var durations: [Duration] = []
        for round in 0..<3 {
            withFreshSource { source, _, _ in
                if round == 0 { checkLatestBeforeStart(source) }
                let started = ContinuousClock.now
                guard start(source, for: .promptStart) else { return }
                durations.append(ContinuousClock.now - started)
                if !source.isMonitoring { record(.promptStart, "isMonitoring is false after the start returned") }
            }
        }
        guard !durations.isEmpty else { return }
        let median = durations.sorted()[durations.count / 2]
        if median > Self.promptLimit { record(.promptStart, "starting took \(median) (median of \(durations))") }
    }

    /// A state source's latest reading is `pending` before its first start; an event source has none.
    func checkLatestBeforeStart(_ source: S) {
        if Self.keepsState(source) {
            let status = source.latest.map { ReadingInspection.status(of: $0) }
            if status != .pending {
                record(.promptStart, "latest before the start is \(source.latest.map { "\($0)" } ?? "nil")")
            }
        } else if let latest = source.latest {
            record(.latest, "an event source has a latest reading before the start: \(latest)")
        }
    }

    /// One run: readings are timestamped and in order, `latest` follows them, `refresh()` and the update interval
    /// behave as documented, and the subject never ends.
    func checkWhileRunning() {
        withFreshSource { source, log, probe in
            let wallBefore = ReadingTime.now().wall
            guard start(source, for: .timestamps), settle(source, log, probe, .timestamps) else { return }
            if probe.held().isEmpty {
                record(
                    .eventLoop,
                    "runs with nothing on the loop it was made with: its timers and descriptors are elsewhere, out of "
                        + "the caller's hands and out of this check's sight")
            }
            source.refresh()
            probe.barrier()
            checkUpdateInterval(source)
            source.stopMonitoring()
            checkTimes(log.entries, since: wallBefore)
            checkLatest(source, log)
            if let completion = log.completion { record(.inBand, "the readings ended: \(completion)") }
        }
    }

    /// Every reading carries a time taken while the check ran, and times never go backwards.
    func checkTimes(_ entries: [ReadingLog<S.Reading>.Entry], since wallBefore: Duration) {
        var previous: ReadingTime?
        for entry in entries {
            guard let time = ReadingInspection.time(of: entry.reading) else {
                record(.timestamps, "\(type(of: entry.reading)) carries no ReadingTime: \(entry.reading)")
                return
            }
            if time.monotonic > entry.received {
                record(.timestamps, "\(entry.reading) is stamped after it was received")
            }
            let wallNow = ReadingTime.now().wall
            if time.wall < wallBefore - .seconds(60) || time.wall > wallNow + .seconds(60) {
                record(.timestamps, "\(entry.reading) has the wall time \(time), not near now")
            }
            if let previous, time < previous {
                record(.timestamps, "\(entry.reading) at \(time) came after a reading at \(previous)")
            }
            previous = time
        }
    }

    /// `latest` is set before a reading reaches subscribers, and is the last reading once the source stopped.
    func checkLatest(_ source: S, _ log: ReadingLog<S.Reading>) {
        let entries = log.entries
        if let missing = entries.first(where: { $0.latestThen == nil }) {
            record(.latest, "latest was nil while \(missing.reading) was delivered")
        }
        guard let last = entries.last else { return }
        let latest = source.latest.map { ReadingInspection.identity(of: $0) }
        let lastIdentity = ReadingInspection.identity(of: last.reading)
        if latest != lastIdentity {
            record(
                .latest, "latest is \(latest ?? "nil") after the source stopped; the last reading was \(lastIdentity)")
        }
    }

    /// A polled source validates its interval and keeps it; an event-driven one has none and refuses one.
    func checkUpdateInterval(_ source: S) {
        guard let interval = source.updateInterval else {
            expectInvalidArgument(source, .seconds(1), "an event-driven source")
            if source.updateInterval != nil { record(.updateInterval, "an event-driven source took an interval") }
            return
        }
        for tooShort in [Duration.zero, .milliseconds(-1), .microseconds(999)] {
            expectInvalidArgument(source, tooShort, "an interval below 1 ms")
            if source.updateInterval != interval {
                record(
                    .updateInterval,
                    "a refused \(tooShort) changed the interval to \(String(describing: source.updateInterval))")
            }
        }
        if !source.isMonitoring { record(.updateInterval, "a refused interval stopped the source") }
        do {
            try source.setUpdateInterval(.seconds(1800))
            if source.updateInterval != .seconds(1800) {
                record(
                    .updateInterval, "after setting 1800 s the interval is \(String(describing: source.updateInterval))"
                )
            }
        } catch {
            record(.updateInterval, "setting 1800 s threw \(error)")
        }
    }

    func expectInvalidArgument(_ source: S, _ interval: Duration, _ what: String) {
        do {
            try source.setUpdateInterval(interval)
            record(.updateInterval, "\(what) accepted \(interval)")
        } catch {
            guard case .invalidArgument(let name, _, _) = error, name == "updateInterval" else {
                record(
                    .updateInterval, "\(what) refused \(interval) with \(error), not invalidArgument(updateInterval)")
                return
            }
        }
    }
}
