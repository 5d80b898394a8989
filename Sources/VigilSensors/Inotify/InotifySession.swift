import Glibc
import Synchronization
import Vigil

/// One running watch of a ``FileSystemMonitor``: the inotify descriptor, its watches, and the translation of kernel
/// records into ``FileSystemEvent``s. A new session is made for every start.
///
/// The lock guards only the ``InotifyTranslator`` and the deadline timer; reads, `inotify_add_watch(2)` and
/// directory walks happen outside it (decide under the lock, act after it). Records are handled on the event-loop
/// thread, one at a time: a record's system calls (watching a new directory, then listing it) finish before the next
/// record is translated, so a new directory's watch is in the table before any of its events is read.
final class InotifySession: Sendable {
    typealias Target = InotifyTranslator.Target

    private struct State {
        var translator: InotifyTranslator
        /// The deadline for pending moves, once scheduled (kept until ``close()`` cancels it, even after it fired).
        var timer: EventLoop.Registration?
        /// Whether a deadline is scheduled and has not fired yet.
        var isTimerArmed = false
        /// The moves the scheduled deadline may expire: those read up to this read.
        var deadlineCovers: UInt64 = 0
    }

    /// What one system call outside the lock produced, applied to the translator afterwards.
    private struct WatchOutcome {
        var watches: [(watchDescriptor: Int32, path: BytePath, isRoot: Bool)] = []
        var events: [FileSystemEvent] = []
        var failures: [(path: BytePath, error: SensorError)] = []
    }

    let target: Target
    private let descriptor: FileDescriptor
    private let active = Atomic<Bool>(true)
    private let state: FutexMutex<State>
    private let publish: @Sendable (SensorEvent<FileSystemEvent>) -> Void
    private let eventLoop: EventLoop
    private let tuning: InotifyTuning

    /// Opens an inotify instance and adds the watches for `target`.
    ///
    /// - Throws: A ``SensorError``: missing path, permission, or a limit reached (with the limit's name and value).
    init(
        target: Target, eventLoop: EventLoop, tuning: InotifyTuning = .standard,
        publish: @escaping @Sendable (SensorEvent<FileSystemEvent>) -> Void
    ) throws(SensorError) {
        self.target = target
        self.publish = publish
        self.eventLoop = eventLoop
        self.tuning = tuning
        let descriptor: FileDescriptor
        do {
            descriptor = try Inotify.initialize()
        } catch {
            throw Inotify.error(error, call: "inotify_init1", path: target.rootPath)
        }
        // Nobody else sees the session yet: the initial walk needs no lock.
        var outcome = WatchOutcome()
        Self.watchTree(
            descriptor.rawValue, target.rootPath, isRoot: true, recursive: target.isRecursive, report: false,
            stopOnFailure: true, outcome: &outcome)
        if let failure = outcome.failures.first {
            descriptor.close()
            throw failure.error
        }
        var translator = InotifyTranslator(target: target)
        for watch in outcome.watches {
            translator.watched(watch.watchDescriptor, path: watch.path, isRoot: watch.isRoot)
        }
        self.descriptor = descriptor
        self.state = FutexMutex(State(translator: translator))
    }

    var fileDescriptor: Int32 { descriptor.rawValue }

    /// Makes the session publish nothing more, cancels its deadline and closes its descriptor (which removes every
    /// watch).
    ///
    /// Call it after the loop registration is cancelled, or from inside ``handleReadable()``.
    func close() {
        active.store(false, ordering: .releasing)
        let timer = state.withLock { $0.timer.take() }
        // Waits for a deadline handler running on the loop thread, which may be reading the descriptor.
        timer?.cancel()
        descriptor.close()
    }

    /// Makes the session publish nothing more; the descriptor stays open until ``close()``.
    func deactivate() { active.store(false, ordering: .releasing) }

    private var isActive: Bool { active.load(ordering: .acquiring) }

    /// Reads and publishes everything pending; runs on the event-loop thread.
    func handleReadable() { readAndPublish(atDeadline: false) }

    /// Handles `records` as the records of one read, as ``handleReadable()`` would, and publishes what is decided.
    ///
    /// A seam for tests that need renames split across reads exactly where they choose.
    package func process(_ records: [InotifyEvent]) {
        state.withLock { $0.translator.beginRead() }
        translate(records)
        finishRead(drained: true, atDeadline: false)
    }

    /// Decides now, as the deadline would, that every pending `IN_MOVED_FROM` was a move out of the tree, and publishes.
    package func expirePendingMoves() {
        let actions = state.withLock { $0.translator.expireMoves(readThrough: .max) }
        perform(actions)
        releaseAndPublish(armTimer: false)
    }

    // MARK: - Reading

    private func readAndPublish(atDeadline: Bool) {
        guard isActive else { return }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: tuning.readBufferSize, alignment: 8)
        defer { buffer.deallocate() }
        var drained = false
        for _ in 0..<tuning.readsPerWake {
            guard isActive else { return }
            let count: Int
            do {
                count = try retryingOnInterrupt { read(descriptor.rawValue, buffer.baseAddress, buffer.count) }
            } catch {
                drained = true
                break
            }
            if count == 0 {
                drained = true
                break
            }
            let readTime = ReadingTime.now()
            state.withLock { $0.translator.beginRead(at: readTime) }
            do {
                translate(try InotifyEvent.parse(UnsafeRawBufferPointer(rebasing: buffer[0..<count])))
            } catch {
                let actions = state.withLock { state in
                    let actions = state.translator.expireMoves(readThrough: .max)
                    // A record that cannot be parsed loses what follows it in the read: events were lost.
                    state.translator.append(SensorEvent(.overflow, time: state.translator.readTime))
                    return actions
                }
                perform(actions)
                drained = true
                break
            }
        }
        finishRead(drained: drained, atDeadline: atDeadline)
    }

    /// Translates records in order under the lock until one needs system calls, makes them after the lock, and goes
    /// on: a record's system calls are made before the next record is translated.
    private func translate(_ records: [InotifyEvent]) {
        var next = records.startIndex
        while next < records.endIndex {
            let actions = state.withLock { state in
                while next < records.endIndex {
                    let actions = state.translator.translate(records[next])
                    next += 1
                    if !actions.isEmpty { return actions }
                }
                return []
            }
            perform(actions)
        }
    }

    /// After a read: expires moves whose deadline passed (when the queue is empty, so their other halves would have
    /// been read), schedules a deadline for moves still pending, and publishes what is released.
    private func finishRead(drained: Bool, atDeadline: Bool) {
        let (actions, armTimer) = state.withLock { state -> ([InotifyTranslator.Action], Bool) in
            var actions: [InotifyTranslator.Action] = []
            if atDeadline {
                state.isTimerArmed = false
                if drained { actions = state.translator.expireMoves(readThrough: state.deadlineCovers) }
            }
            let armTimer = state.translator.hasPendingMoves && !state.isTimerArmed
            if armTimer {
                state.isTimerArmed = true
                state.deadlineCovers = state.translator.reads
            }
            return (actions, armTimer)
        }
        perform(actions)
        releaseAndPublish(armTimer: armTimer)
    }

    private func releaseAndPublish(armTimer: Bool) {
        if armTimer { scheduleDeadline() }
        let events = state.withLock { $0.translator.takeReleasable() }
        for event in events {
            guard isActive else { return }
            publish(event)
        }
    }

    private func scheduleDeadline() {
        let timer: EventLoop.Registration
        do {
            timer = try eventLoop.schedule(after: tuning.moveDeadline) { [weak self] in
                self?.readAndPublish(atDeadline: true)
            }
        } catch {
            // No timer: decide now rather than hold the events forever.
            let actions = state.withLock { state in
                state.isTimerArmed = false
                return state.translator.expireMoves(readThrough: .max)
            }
            perform(actions)
            return
        }
        let replaced = state.withLock { state in
            let replaced = state.timer
            state.timer = timer
            return replaced
        }
        // The previous deadline has fired (one is armed at a time); cancelling it only releases it.
        replaced?.cancel()
    }

    // MARK: - Watching

    /// Makes the system calls the translator asked for, then reports the results to it.
    private func perform(_ actions: [InotifyTranslator.Action]) {
        for action in actions {
            switch action {
            case .unwatch(let watchDescriptors):
                for watchDescriptor in watchDescriptors {
                    Inotify.removeWatch(descriptor.rawValue, watchDescriptor: watchDescriptor)
                }
            case .watch(let directory, let isRoot, let report):
                var outcome = WatchOutcome()
                Self.watchTree(
                    descriptor.rawValue, directory, isRoot: isRoot, recursive: target.isRecursive, report: report,
                    stopOnFailure: false, outcome: &outcome)
                state.withLock { state in
                    for watch in outcome.watches {
                        state.translator.watched(watch.watchDescriptor, path: watch.path, isRoot: watch.isRoot)
                    }
                    for event in outcome.events { state.translator.append(SensorEvent(event)) }
                    for failure in outcome.failures {
                        state.translator.append(
                            .unavailable(
                                reason: "\(failure.error); changes below \(failure.path) are not reported"))
                    }
                }
            }
        }
    }

    /// Watches `directory` and, if `recursive`, every directory below it; adds the watch before listing, so an entry
    /// created meanwhile is either listed or reported by the new watch. With `report`, lists entries as created.
    private static func watchTree(
        _ fd: Int32, _ directory: BytePath, isRoot: Bool, recursive: Bool, report: Bool, stopOnFailure: Bool,
        outcome: inout WatchOutcome
    ) {
        let mask = Inotify.watchMask | Inotify.onlyDirectory | (isRoot ? 0 : UInt32(IN_DONT_FOLLOW))
        let watchDescriptor: Int32
        do {
            watchDescriptor = try Inotify.addWatch(fd, path: directory, mask: mask)
        } catch {
            // A directory that vanished before its watch was added is no failure: its deletion was reported.
            if isRoot || (error != .noSuchFileOrDirectory && error != .notDirectory) {
                outcome.failures.append((directory, Inotify.error(error, call: "inotify_add_watch", path: directory)))
            }
            return
        }
        outcome.watches.append((watchDescriptor, directory, isRoot))
        guard recursive || report, let names = try? directory.listDirectory() else { return }
        for name in names {
            let child = directory.appending(name)
            let isDirectory = child.isRealDirectory
            if report { outcome.events.append(FileSystemEvent(kind: .created, path: child, isDirectory: isDirectory)) }
            if recursive && isDirectory {
                watchTree(
                    fd, child, isRoot: false, recursive: true, report: report, stopOnFailure: stopOnFailure,
                    outcome: &outcome)
                if stopOnFailure && !outcome.failures.isEmpty { return }
            }
        }
    }
}
