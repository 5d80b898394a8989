import CLinuxSupport
import Glibc
import Synchronization
import Vigil
import VigilSensors

/// `eventloop.timers`: 1, 50 and 500 polled sources, each a repeating 100 ms timer started together (as a dashboard
/// starts its catalog), on the OLD loop strategy (one `timerfd` per timer, the baseline, kept below as
/// ``PerTimerDescriptorLoop``) and on ``EventLoop`` (one `timerfd` and a deadline heap), measured side by side in this
/// run: descriptors the loop and its timers hold, wake-ups of the loop thread per second while only the timers run,
/// and the loop thread's CPU time per timer tick.
func runEventLoopTimers(_ options: Options, _ report: Report) {
    let scenario = "eventloop.timers"
    guard options.includes(scenario) else { return }
    let window = options.quick ? 0.3 : 2.0
    for sources in [1, 50, 500] {
        let parameter = "\(sources) sources"
        let old = measureTimerLoop(sources: sources, window: window, rounds: options.rounds) {
            PerTimerDescriptorLoop()
        }
        let new = measureTimerLoop(sources: sources, window: window, rounds: options.rounds) { NewTimerLoop() }
        guard let old, let new else {
            print("\(scenario): cannot find the loop thread")
            return
        }
        report.add(
            scenario, parameter, "old: timerfd each", unit: "descriptors", old.descriptors,
            note: "baseline: a copy of the loop before issue 22, epoll + one timerfd per timer")
        report.add(
            scenario, parameter, "new: one timerfd", unit: "descriptors", new.descriptors, baseline: old.descriptors,
            note: "EventLoop: epoll + eventfd + one timerfd, a deadline heap")
        report.add(scenario, parameter, "old: timerfd each", unit: "wake-ups/s", old.wakeUps)
        report.add(scenario, parameter, "new: one timerfd", unit: "wake-ups/s", new.wakeUps, baseline: old.wakeUps)
        report.add(scenario, parameter, "old: timerfd each", unit: "ns CPU/tick", old.cpuPerTick)
        report.add(
            scenario, parameter, "new: one timerfd", unit: "ns CPU/tick", new.cpuPerTick, baseline: old.cpuPerTick,
            note: "the loop thread's on-CPU time (schedstat) per timer handler call")
    }
}

/// What one loop strategy costs with a number of timers.
private struct TimerLoopFigures {
    var descriptors: Samples
    var wakeUps: Samples
    var cpuPerTick: Samples
}

/// A loop that runs repeating timers on a thread of its own: the old strategy or the new one.
private protocol TimerLoop {
    /// The name of the loop's thread, to find it in `/proc/self/task`.
    var threadName: String { get }
    /// Starts calling `handler` on the loop thread every `interval`.
    func schedule(every interval: Duration, handler: @escaping @Sendable () -> Void)
    /// Cancels every timer and ends the thread.
    func shutdown()
}

/// ``EventLoop`` as it is now.
private final class NewTimerLoop: TimerLoop {
    private let loop = EventLoop()
    private var registrations: [EventLoop.Registration] = []

    var threadName: String { EventLoop.threadName }

    func schedule(every interval: Duration, handler: @escaping @Sendable () -> Void) {
        if let registration = try? loop.schedule(every: interval, handler: handler) {
            registrations.append(registration)
        }
    }

    func shutdown() {
        for registration in registrations { registration.cancel() }
        loop.shutdown()
    }
}

/// Starts `sources` timers on a new loop, counts the descriptors they added, then measures `rounds` windows of
/// `window` seconds with nothing but the timers running.
private func measureTimerLoop(
    sources: Int, window: Double, rounds: Int, makeLoop: () -> some TimerLoop
) -> TimerLoopFigures? {
    let kinds = ["anon_inode:[timerfd]", "anon_inode:[eventpoll]", "anon_inode:[eventfd]"]
    let descriptorsBefore = descriptorCount(linkingTo: kinds)
    let threadsBefore = Set(threadIDs())
    let loop = makeLoop()
    defer {
        // Both loops close their descriptors on their own thread after shutdown: wait, so the next count starts clean.
        loop.shutdown()
        for _ in 0..<100 where descriptorCount(linkingTo: kinds) > descriptorsBefore { usleep(10_000) }
    }
    let ticks = Atomic<Int>(0)
    for _ in 0..<sources {
        loop.schedule(every: .milliseconds(100)) { ticks.add(1, ordering: .relaxed) }
    }
    let descriptors = Double(descriptorCount(linkingTo: kinds) - descriptorsBefore)
    guard let thread = newThread(named: loop.threadName, notIn: threadsBefore) else { return nil }
    usleep(200_000)  // the first ticks: warm-up
    var wakeUps: [Double] = []
    var cpuPerTick: [Double] = []
    for _ in 0..<rounds {
        let start = (
            switches: voluntarySwitches(thread), cpu: onCPUNanoseconds(thread), ticks: ticks.load(ordering: .relaxed)
        )
        let started = now()
        usleep(UInt32(window * 1_000_000))
        let seconds = Double(now() - started) / 1e9
        let switches = voluntarySwitches(thread) - start.switches
        let cpu = onCPUNanoseconds(thread) - start.cpu
        let ticked = ticks.load(ordering: .relaxed) - start.ticks
        wakeUps.append(Double(switches) / seconds)
        cpuPerTick.append(Double(cpu) / Double(max(ticked, 1)))
    }
    return TimerLoopFigures(
        descriptors: Samples(values: [descriptors]), wakeUps: Samples(values: wakeUps),
        cpuPerTick: Samples(values: cpuPerTick))
}

/// The thread named `name` that is not one of `existing`, once it has named itself (a second at most).
private func newThread(named name: String, notIn existing: Set<String>) -> String? {
    for _ in 0..<100 {
        let found = threadIDs().first { !existing.contains($0) && readProcFile("/proc/self/task/\($0)/comm") == name }
        if let found { return found }
        usleep(10_000)
    }
    return nil
}

/// The thread ids of this process.
private func threadIDs() -> [String] {
    guard let directory = opendir("/proc/self/task") else { return [] }
    defer { closedir(directory) }
    var ids: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name.first?.isNumber == true { ids.append(name) }
    }
    return ids
}

/// Open descriptors whose `/proc/self/fd` link names one of `targets`.
private func descriptorCount(linkingTo targets: [String]) -> Int {
    guard let directory = opendir("/proc/self/fd") else { return 0 }
    defer { closedir(directory) }
    var count = 0
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        var buffer = [CChar](repeating: 0, count: 256)
        let length = readlink("/proc/self/fd/" + name, &buffer, buffer.count)
        guard length > 0 else { continue }
        let target = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if targets.contains(target) { count += 1 }
    }
    return count
}

/// How often the thread went to sleep of its own accord (each wait in `epoll_wait` ended by a wake-up).
private func voluntarySwitches(_ thread: String) -> Int {
    let status = readProcFile("/proc/self/task/\(thread)/status") ?? ""
    for line in status.split(separator: "\n") where line.hasPrefix("voluntary_ctxt_switches:") {
        return Int(line.split(separator: "\t").last ?? "") ?? 0
    }
    return 0
}

/// The thread's time on a CPU in nanoseconds, the first field of its `schedstat`.
private func onCPUNanoseconds(_ thread: String) -> Int {
    let fields = (readProcFile("/proc/self/task/\(thread)/schedstat") ?? "").split(separator: " ")
    return fields.first.flatMap { Int($0) } ?? 0
}

private func readProcFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    guard count > 0 else { return nil }
    var text = String(decoding: buffer[0..<count], as: UTF8.self)
    while text.last == "\n" { text.removeLast() }
    return text
}

/// THE BASELINE, NOT VIGIL'S LOOP: a minimal copy of the event loop's timer strategy before issue 22, kept only to
/// measure the new loop against in the same run. Each repeating timer is a `timerfd` of its own on the epoll set,
/// armed with an interval; the thread drains whichever are ready and calls their handlers, never under its lock.
private final class PerTimerDescriptorLoop: TimerLoop {
    private let epoll: Int32
    private let wake: Int32
    private let lock = FutexMutex<[Int32: @Sendable () -> Void]>([:])
    private let finished = Atomic<Bool>(false)

    let threadName = "vigil-oldloop"

    init() {
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        wake = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        var event = epoll_event()
        event.events = vigil_epollin()
        event.data.fd = wake
        epoll_ctl(epoll, EPOLL_CTL_ADD, wake, &event)
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        pthread_create(
            &thread, nil,
            { context in
                let loop = Unmanaged<PerTimerDescriptorLoop>.fromOpaque(context!).takeRetainedValue()
                loop.run()
                return nil
            }, context)
        pthread_detach(thread)
    }

    func schedule(every interval: Duration, handler: @escaping @Sendable () -> Void) {
        let timer = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        var spec = itimerspec()
        let (seconds, attoseconds) = interval.components
        spec.it_value = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        spec.it_interval = spec.it_value
        timerfd_settime(timer, 0, &spec, nil)
        lock.withLock { $0[timer] = handler }
        var event = epoll_event()
        event.events = vigil_epollin()
        event.data.fd = timer
        epoll_ctl(epoll, EPOLL_CTL_ADD, timer, &event)
    }

    func shutdown() {
        finished.store(true, ordering: .releasing)
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { write(wake, $0.baseAddress, 8) }
    }

    private func run() {
        _ = vigil_set_thread_name(threadName)
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while !finished.load(ordering: .acquiring) {
            let count = events.withUnsafeMutableBufferPointer { epoll_wait(epoll, $0.baseAddress, 64, -1) }
            for index in 0..<max(Int(count), 0) {
                let fd = events[index].data.fd
                var expirations: UInt64 = 0
                let got = withUnsafeMutableBytes(of: &expirations) { read(fd, $0.baseAddress, 8) }
                guard fd != wake, got == 8, let handler = lock.withLock({ $0[fd] }) else { continue }
                handler()
            }
        }
        for timer in lock.withLock({ Array($0.keys) }) { close(timer) }
        close(wake)
        close(epoll)
    }
}
