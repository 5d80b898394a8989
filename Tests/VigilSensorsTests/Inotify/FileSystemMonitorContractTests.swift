import Glibc
import Synchronization
import Testing
import Vigil
import VigilSensors
import VigilTestSupport

extension InotifyKernelTests {
    /// The contract every source keeps: changes to the watched object itself, release, and in-band problems.
    @Suite(.timeLimit(.minutes(10))) struct FileSystemMonitorContractTests {
        @Test func reportsChangesToTheWatchedDirectoryItself() async throws {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            let (monitor, recorder) = try EventRecorder.started(directory.path)
            defer { monitor.stopMonitoring() }
            #expect(chmod(directory.path, 0o700) == 0)
            #expect(await recorder.waitFor(.attributesChanged, directory.path), "\(recorder.all)")
            #expect(recorder.all.first?.isDirectory == true)
            recorder.clear()
            // `touch DIR`: new timestamps.
            #expect(utimes(directory.path, nil) == 0)
            #expect(await recorder.waitFor(.attributesChanged, directory.path), "\(recorder.all)")
        }

        @Test func theWatchedDirectoryRemovedArrivesInBandAndNeverEndsTheSubject() async throws {
            let parent = TemporaryDirectory()
            defer { parent.remove() }
            let watched = parent.file("watched")
            mkdir(watched, 0o755)
            let monitor = FileSystemMonitor(path: watched)
            let recorder = EventRecorder(monitor)
            let completions = Atomic<Int>(0)
            let subscription = monitor.readings.subscribe(
                onNext: { _ in }, onCompletion: { _ in completions.add(1, ordering: .relaxed) })
            defer { subscription.dispose() }
            try monitor.startMonitoring()
            defer { monitor.stopMonitoring() }
            rmdir(watched)
            #expect(await recorder.waitFor(.watchedObjectDeleted, watched))
            #expect(await recorder.waitFor(.watchRemoved, watched))
            monitor.stopMonitoring()
            #expect(completions.load(ordering: .relaxed) == 0, "a source never completes or fails its subject")
        }

        @Test func aReleasedMonitorStopsAndClosesItsDescriptor() async throws {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            let before = InotifyKernelTests.inotifyDescriptorCount()
            var monitor: FileSystemMonitor? = FileSystemMonitor(path: directory.path, recursive: true)
            let recorder = try #require(monitor.map { EventRecorder($0) })
            try monitor?.startMonitoring()
            #expect(InotifyKernelTests.inotifyDescriptorCount() == before + 1)
            writeFile(directory.file("while-held"))
            #expect(await recorder.waitFor(.created, directory.file("while-held")))
            // A callback still delivering an earlier event (the write's `modified`) holds the monitor until it
            // returns, so the release, and with it the close, is awaited; after it nothing more may arrive.
            monitor = nil
            #expect(await eventually(within: 20) { InotifyKernelTests.inotifyDescriptorCount() == before })
            recorder.clear()
            writeFile(directory.file("after-release"))
            try await EventLoop.shared.barrier()  // inotify queues the event in the write: it would be handled by now
            #expect(recorder.all.isEmpty, "\(recorder.all)")
        }

        /// The walk of a large recursive start runs outside the monitor's lock: a stop meanwhile returns at once, and
        /// the start, finding itself stopped, closes what it opened.
        @Test func stopDuringALongStartReturnsAtOnceAndLeavesNothingRunning() async throws {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            for outer in 0..<50 {
                mkdir(directory.file("d\(outer)"), 0o755)
                for inner in 0..<60 { mkdir(directory.file("d\(outer)/d\(inner)"), 0o755) }
            }
            let before = InotifyKernelTests.inotifyDescriptorCount()
            let monitor = FileSystemMonitor(path: directory.path, recursive: true)
            let startReturned = Atomic<Bool>(false)
            let starter = Task.detached {
                try monitor.startMonitoring()
                startReturned.store(true, ordering: .sequentiallyConsistent)
            }
            while !monitor.isMonitoring && !startReturned.load(ordering: .sequentiallyConsistent) { sched_yield() }
            monitor.stopMonitoring()
            let stopReturnedFirst = !startReturned.load(ordering: .sequentiallyConsistent)
            try await starter.value
            #expect(stopReturnedFirst, "stopMonitoring() waited for the directory walk of startMonitoring()")
            #expect(!monitor.isMonitoring)
            #expect(InotifyKernelTests.inotifyDescriptorCount() == before)
        }
    }
}
