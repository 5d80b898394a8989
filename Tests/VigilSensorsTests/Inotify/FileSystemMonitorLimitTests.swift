import Dispatch
import Glibc
import Synchronization
import Testing
import VigilSensors
import VigilTestSupport

extension InotifyKernelTests {
    /// The kernel's limits: a full event queue, and the per-user watch limit.
    @Suite(.timeLimit(.minutes(10))) struct FileSystemMonitorLimitTests {
        static let queueLimitPath = "/proc/sys/fs/inotify/max_queued_events"
        static let watchLimitPath = "/proc/sys/fs/inotify/max_user_watches"

        static func readLimit(_ path: String) -> Int? { ProcessProbe.readFile(path).flatMap { Int($0) } }

        static func writeLimit(_ path: String, _ value: Int) -> Bool { writeFile(path, "\(value)\n") }

        /// Overflow needs more events than the queue holds; keep the burst reasonable.
        static var queueIsSmallEnough: Bool { (readLimit(queueLimitPath) ?? .max) <= 200_000 }

        @Test(.enabled(if: queueIsSmallEnough, "max_queued_events is too large for a burst"))
        func reportsOverflowWhileTheConsumerIsBlockedAndKeepsWorking() async throws {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            // A private loop, so blocking its thread does not stall other tests.
            let loop = EventLoop()
            defer { loop.shutdown() }
            let monitor = FileSystemMonitor(path: directory.path, recursive: true, eventLoop: loop)
            let blocked = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let blockedOnce = Atomic<Bool>(false)
            let recorder = EventRecorder(monitor) { event in
                if event.path.lossyString.hasSuffix("/first"), !blockedOnce.exchange(true, ordering: .relaxed) {
                    blocked.signal()
                    release.wait()
                }
            }
            try monitor.startMonitoring()
            defer { monitor.stopMonitoring() }
            writeFile(directory.file("first"))
            blocked.wait()
            // Each new empty file queues IN_CREATE and IN_CLOSE_WRITE.
            let files = (Self.readLimit(Self.queueLimitPath) ?? 16384) / 2 + 500
            for index in 0..<files {
                let fd = open(directory.file("burst\(index)"), O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
                close(fd)
            }
            // The queue is full: this directory's creation is lost, so only the rescan after overflow can watch it.
            mkdir(directory.file("lost"), 0o755)
            release.signal()
            #expect(await recorder.waitFor { $0 == .overflow })
            writeFile(directory.file("after"))
            #expect(await recorder.waitFor(.created, directory.file("after")))
            writeFile(directory.file("lost/inside"))
            #expect(await recorder.waitFor(.created, directory.file("lost/inside")))
        }

        @Test func watchLimitIsReportedWithItsNameAndValue() async throws {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            for name in ["a", "b", "c"] { mkdir(directory.file(name), 0o755) }
            let original = try #require(Self.readLimit(Self.watchLimitPath))
            let monitor = FileSystemMonitor(path: directory.path, recursive: true)
            let before = InotifyKernelTests.inotifyDescriptorCount()
            #expect(Self.writeLimit(Self.watchLimitPath, 1))
            defer { #expect(Self.writeLimit(Self.watchLimitPath, original)) }
            do {
                try monitor.startMonitoring()
                Issue.record("a recursive watch of 4 directories started with max_user_watches = 1")
            } catch {
                guard case .limitReached(let name, let value, _) = error else {
                    Issue.record("unexpected error \(error)")
                    return
                }
                #expect(name == "fs.inotify.max_user_watches")
                #expect(value == 1)
                #expect(error.description.contains("fs.inotify.max_user_watches = 1"))
            }
            #expect(!monitor.isMonitoring)
            #expect(InotifyKernelTests.inotifyDescriptorCount() <= before)
        }

        @Test func watchLimitHitLaterIsReportedNotSilent() async throws {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            let original = try #require(Self.readLimit(Self.watchLimitPath))
            let monitor = FileSystemMonitor(path: directory.path, recursive: true)
            let recorder = EventRecorder(monitor)
            try monitor.startMonitoring()
            defer { monitor.stopMonitoring() }
            #expect(Self.writeLimit(Self.watchLimitPath, 1))
            mkdir(directory.file("sub"), 0o755)
            let sub = directory.file("sub")
            let failed = await recorder.waitFor { kind in
                if case .unavailable(let reason) = kind { reason.contains(sub) } else { false }
            }
            #expect(Self.writeLimit(Self.watchLimitPath, original))
            #expect(failed)
            let reason = recorder.published.lazy.compactMap { event -> String? in
                if case .unavailable(let reason) = event.kind { reason } else { nil }
            }.first
            #expect(reason?.contains("fs.inotify.max_user_watches") == true, "\(String(describing: reason))")
        }
    }
}
