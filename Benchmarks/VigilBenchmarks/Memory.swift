import CMallocCounter
import Glibc
import Vigil

/// Scenario 7: resident memory per live subscription, and heap allocations per immediate publish.
func runMemory(_ options: Options, _ report: Report) {
    let scenario = "memory.subscription"
    guard options.includes(scenario) else { return }
    let count = options.scaled(1_000_000)

    let subject = PublishSubject<Int>()
    var subscriptions: [Subscription] = []
    subscriptions.reserveCapacity(count)
    let heapBefore = heapBytesInUse()
    let residentBefore = residentBytes()
    for _ in 0..<count { subscriptions.append(subject.subscribe { _ in }) }
    let heapAfter = heapBytesInUse()
    let residentAfter = residentBytes()
    report.addValue(
        scenario, "\(count) held", "vigil heap", unit: "bytes/subscription",
        Double(heapAfter - heapBefore) / Double(count),
        note: "malloc bytes in use (mallinfo2), including the subject's list and its spare capacity")
    // The holding array was reserved before the first reading, so it is not counted.
    report.addValue(
        scenario, "\(count) held", "vigil resident", unit: "bytes/subscription",
        Double(residentAfter - residentBefore) / Double(count),
        note: "resident set growth; lower when earlier scenarios left freed memory to reuse")
    subscriptions.forEach { $0.dispose() }
    subscriptions = []

    let publishes = options.scaled(1_000_000)
    for subscribers in [1, 10] {
        let target = PublishSubject<Int>()
        let counters = (0..<subscribers).map { _ in Counter() }
        let held = counters.map { counter in target.subscribe { counter.value &+= $0 } }
        publishAll(target, values: 1000)
        let start = vigil_malloc_count()
        vigil_malloc_counting(1)
        publishAll(target, values: publishes)
        vigil_malloc_counting(0)
        let allocations = Double(vigil_malloc_count() - start) / Double(publishes)
        report.addValue(
            scenario, "N=\(subscribers)", "vigil", unit: "allocs/publish", allocations,
            note: "malloc calls counted by an interposed malloc")
        held.forEach { $0.dispose() }
    }
}

/// Bytes the allocator has handed out and not yet taken back.
func heapBytesInUse() -> Int {
    Int(vigil_heap_bytes_in_use())
}

/// The process's resident set size, from /proc/self/statm.
func residentBytes() -> Int {
    guard let file = fopen("/proc/self/statm", "r") else { return 0 }
    defer { fclose(file) }
    var size = 0
    var resident = 0
    guard fscanf_statm(file, &size, &resident) else { return 0 }
    return resident * Int(sysconf(Int32(_SC_PAGESIZE)))
}

private func fscanf_statm(_ file: UnsafeMutablePointer<FILE>, _ size: inout Int, _ resident: inout Int) -> Bool {
    var buffer = [CChar](repeating: 0, count: 128)
    guard fgets(&buffer, Int32(buffer.count), file) != nil else { return false }
    let fields = string(fromC: buffer).split(separator: " ")
    guard fields.count >= 2, let total = Int(fields[0]), let rss = Int(fields[1]) else { return false }
    size = total
    resident = rss
    return true
}
