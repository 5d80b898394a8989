import Dispatch
import Testing
import Vigil
import VigilSensors

// The six small programs of issue 13, written as application code would write them from the README: no Sendable
// wrapper, no `MainActor.assumeIsolated`, no hand-made lock. That this file compiles in Swift 6 mode with no warning
// is half of each test; the other half checks that the program does what it says.

// 1. A state store with a cached name and age, shown by a main-actor view model.
final class ProfileStore: Sendable {
    let name = BehaviorRelay("zhangsan")
    let age = BehaviorRelay(17)

    func birthday() { age.modify { $0 += 1 } }
    func rename(_ newName: String) { name.publishIfChanged(newName) }
}

@MainActor final class ProfileViewModel {
    private(set) var title = ""
    private(set) var titles: [String] = []
    private let bag = DisposeBag()

    init(store: ProfileStore) {
        Observable.combineLatest(store.name, store.age)
            .subscribe(on: .mainActor) { name, age in
                self.title = "\(name), \(age)"
                self.titles.append(self.title)
            }
            .disposed(by: bag)
    }
}

// 2. A network-status singleton with a handler.
final class Connectivity: Sendable {
    static let shared = Connectivity()
    let monitor = NetworkMonitor()

    /// Whether the machine has a usable network, once the monitor has read the kernel's state.
    var isConnected: Observable<Bool> {
        monitor.readings.compactMap { $0.value?.isConnected }.removeDuplicates()
    }
}

@MainActor final class ConnectivityBanner {
    private(set) var text = "checking…"
    private var subscription: Subscription?

    func start() {
        subscription = Connectivity.shared.isConnected.subscribe(with: self, on: .mainActor) { banner, connected in
            banner.text = connected ? "online" : "offline"
        }
    }
}

// 4. A dashboard of sources from the catalog, each row the latest reading.
@MainActor final class Dashboard {
    private(set) var latest: [String: String] = [:]
    private(set) var sources: [any Monitor] = []
    private let bag = DisposeBag()

    func show(_ source: CatalogSource) {
        let id = source.id
        // `with: self` holds the dashboard weakly: the bag it owns holds the subscription, so a strong `self` in
        // the callback would be a cycle that outlives the dashboard.
        source.readings.subscribe(with: self, on: .mainActor(buffer: .latest)) { dashboard, reading in
            dashboard.latest[id] = reading.description
        }
        .disposed(by: bag)
        sources.append(source)
    }
}

// 5. Typed notifications: the downloader an observer filters on, and a cache that is not Sendable posting too.
struct DownloadFinished: Sendable { let bytes: Int }

final class Downloader: Sendable {
    func finish(_ bytes: Int, hub: NotificationHub) {
        hub.post(DownloadFinished(bytes: bytes), from: self)
    }
}

final class DownloadCache {
    var stored = 0

    func storeAndAnnounce(_ bytes: Int, hub: NotificationHub) {
        stored += bytes
        hub.post(DownloadFinished(bytes: bytes), from: self)
    }
}

@Suite(.timeLimit(.minutes(10))) struct SixProgramsTests {
    @Test @MainActor func aStateStoreWithCachedValuesDrivesAMainActorViewModel() async {
        let store = ProfileStore()
        let model = ProfileViewModel(store: store)
        store.birthday()
        store.rename("lisi")
        store.rename("lisi")  // no change, no publish
        #expect(await eventuallyOnMain { model.title == "lisi, 18" })
        #expect(model.titles == ["zhangsan, 17", "zhangsan, 18", "lisi, 18"])
        #expect(store.age.value == 18)
    }

    // The singleton lives until exit, weakly referenced: LeakSanitizer reports its weak-reference side tables unless
    // .ci/lsan-suppressions.txt is in LSAN_OPTIONS, as .ci/run sets it.
    @Test @MainActor func aNetworkStatusSingletonCallsItsHandlerOnTheMainActor() async throws {
        try Connectivity.shared.monitor.startMonitoring()
        defer { Connectivity.shared.monitor.stopMonitoring() }
        let banner = ConnectivityBanner()
        banner.start()
        #expect(await eventuallyOnMain { banner.text != "checking…" })
        let expected = Connectivity.shared.monitor.readings.value.value?.isConnected == true ? "online" : "offline"
        #expect(banner.text == expected)
    }

    @Test func anArrayOfMonitorsStartsAndStopsTogether() async throws {
        let cpu = CPUUsageMonitor(updateInterval: .milliseconds(50))
        let memory = MemoryUsageMonitor(updateInterval: .milliseconds(50))
        let monitors: [any Monitor] = [cpu, memory]
        try monitors.startMonitoring()
        #expect(monitors.allSatisfy { $0.isMonitoring })
        let firstMemory = try await memory.readings.values.first { $0.value != nil }
        #expect((firstMemory?.value?.totalBytes ?? 0) > 0)
        monitors.stopMonitoring()
        #expect(!monitors.contains { $0.isMonitoring })
    }

    @Test @MainActor func aDashboardOfSourcesKeepsTheLatestReadingOfEach() async throws {
        let dashboard = Dashboard()
        for entry in SourceCatalog.builtIn where ["cpu", "memory"].contains(entry.id) {
            dashboard.show(try entry.make())
        }
        try dashboard.sources.startMonitoring()
        defer { dashboard.sources.stopMonitoring() }
        #expect(await eventuallyOnMain { dashboard.latest.count == 2 })
    }

    @Test func typedNotificationsFilteredBySender() async {
        let hub = NotificationHub()
        let downloader = Downloader()
        let other = DownloadCache()
        let received = BehaviorSubject<[Int]>([])
        let subscription = hub.observe(DownloadFinished.self, from: downloader) { finished in
            received.modify { $0.append(finished.bytes) }
        }
        downloader.finish(100, hub: hub)
        other.storeAndAnnounce(5, hub: hub)  // another sender, not Sendable: filtered out
        downloader.finish(200, hub: hub)
        #expect(received.value == [100, 200])
        subscription.dispose()
    }

    @Test func asyncIterationOverAStateStore() async throws {
        let counter = BehaviorSubject(0)
        let reader = Task {
            var seen: [Int] = []
            for try await value in counter.values(buffer: .unbounded) {
                seen.append(value)
                if value == 3 { break }
            }
            return seen
        }
        while counter.subscriberCount == 0 { await Task.yield() }
        for _ in 1...3 { counter.modify { $0 += 1 } }
        #expect(try await reader.value == [0, 1, 2, 3])
    }
}

/// Waits, up to `seconds`, for `condition` to hold on the main actor.
@MainActor private func eventuallyOnMain(seconds: Int = 60, _ condition: @MainActor () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}
