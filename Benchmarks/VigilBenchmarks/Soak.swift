import Dispatch
import Glibc
import Synchronization
import Vigil
import VigilSensors

/// Soak mode: publishers, subscribers joining and leaving, and every source this machine has starting and stopping,
/// for `seconds`; then descriptor, thread and resident memory growth, which should be none beyond noise.
func runSoak(seconds: Int) {
    print("soak: \(seconds) s of publishers and churning subscribers")
    let subject = BehaviorSubject(0)
    let counters = SoakCounters()
    let queue = DispatchQueue(label: "soak consumer")
    let group = DispatchGroup()
    // Warm up once so lazily created runtime threads and pools exist before the first reading.
    soakRound(subject, queue: queue, counters: counters)
    let directory = "/tmp/vigil-soak-\(getpid())"
    mkdir(directory, 0o700)
    defer { rmdir(directory) }
    soakSources(directory: directory, counters: counters)
    let start = ProcessSnapshot.take()
    for worker in 0..<5 {
        DispatchQueue.global().async(group: group) {
            while counters.running.load(ordering: .relaxed) {
                if worker == 4 {
                    soakSources(directory: directory, counters: counters)
                } else if worker < 2 {
                    for value in 0..<1000 { subject.publish(value) }
                    counters.operations.add(1000, ordering: .relaxed)
                } else {
                    soakRound(subject, queue: queue, counters: counters)
                }
            }
        }
    }
    let deadline = now() + UInt64(seconds) * 1_000_000_000
    while now() < deadline {
        sleep(UInt32(min(10, max(1, seconds / 10))))
        let snapshot = ProcessSnapshot.take()
        print("  \(snapshot.describe(since: start)), \(counters.operations.load(ordering: .relaxed)) operations")
    }
    counters.running.store(false, ordering: .relaxed)
    group.wait()
    queue.sync {}
    let end = ProcessSnapshot.take()
    print(
        "soak done: \(end.describe(since: start)); sources that failed to start: \(counters.failures.load(ordering: .relaxed))"
    )
}

private func soakRound(_ subject: BehaviorSubject<Int>, queue: DispatchQueue, counters: SoakCounters) {
    let bag = DisposeBag()
    for index in 0..<100 {
        let delivery: Delivery = index % 2 == 0 ? .immediate : .queue(queue, buffer: .latest)
        subject.subscribe(on: delivery) { _ in }.disposed(by: bag)
    }
    bag.dispose()
    counters.operations.add(100, ordering: .relaxed)
}

/// Starts every available source, lets it run briefly with a subscriber, and stops it again.
private func soakSources(directory: String, counters: SoakCounters) {
    let monitors: [any Monitor] = [
        FileSystemMonitor(path: directory, recursive: true), CPUUsageMonitor(updateInterval: .milliseconds(50)),
        MemoryUsageMonitor(updateInterval: .milliseconds(50)), MemoryPressureMonitor(updateInterval: .milliseconds(50)),
        NetworkMonitor(), DeviceMonitor(), ClockChangeMonitor(),
    ]
    for monitor in monitors {
        do {
            try monitor.startMonitoring()
        } catch {
            counters.failures.add(1, ordering: .relaxed)
        }
    }
    let file = directory + "/soak"
    close(open(file, O_CREAT | O_WRONLY, 0o600))
    unlink(file)
    usleep(100_000)
    monitors.stopMonitoring()
    counters.operations.add(monitors.count, ordering: .relaxed)
}

/// The soak's shared flag and operation count.
private final class SoakCounters: Sendable {
    let running = Atomic<Bool>(true)
    let operations = Atomic<Int>(0)
    let failures = Atomic<Int>(0)
}

/// Descriptors, threads and resident memory of this process at one moment.
struct ProcessSnapshot {
    let descriptors: Int
    let threads: Int
    let residentKiB: Int

    static func take() -> ProcessSnapshot {
        ProcessSnapshot(descriptors: countDescriptors(), threads: countThreads(), residentKiB: residentBytes() / 1024)
    }

    func describe(since start: ProcessSnapshot) -> String {
        "descriptors \(start.descriptors)→\(descriptors), threads \(start.threads)→\(threads), "
            + "resident \(start.residentKiB)→\(residentKiB) KiB"
    }

    private static func countDescriptors() -> Int {
        guard let directory = opendir("/proc/self/fd") else { return -1 }
        defer { closedir(directory) }
        var count = 0
        while readdir(directory) != nil { count += 1 }
        return count - 3  // ".", ".." and the directory's own descriptor
    }

    private static func countThreads() -> Int {
        guard let file = fopen("/proc/self/status", "r") else { return -1 }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 256)
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            let line = string(fromC: buffer)
            if line.hasPrefix("Threads:") {
                return Int(line.dropFirst("Threads:".count).trimmingCharacters()) ?? -1
            }
        }
        return -1
    }
}
