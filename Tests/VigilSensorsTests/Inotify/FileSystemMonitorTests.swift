import Glibc
import Testing
import VigilSensors
import VigilTestSupport

extension InotifyKernelTests {
    @Suite(.timeLimit(.minutes(10))) struct FileSystemMonitorTests {
        @Test func reportsEveryKindInADirectory() async throws {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            let (monitor, recorder) = try EventRecorder.started(directory.path)
            defer { monitor.stopMonitoring() }
            let file = directory.file("a.txt")

            writeFile(file, "hello")
            #expect(await recorder.waitFor(.created, file))
            #expect(await recorder.waitFor(.modified, file))
            #expect(await recorder.waitFor(.closedAfterWrite, file))
            chmod(file, 0o600)
            #expect(await recorder.waitFor(.attributesChanged, file))
            rename(file, directory.file("b.txt"))
            #expect(await recorder.waitFor(.moved, directory.file("b.txt"), oldPath: file))
            #expect(!recorder.contains(.deleted, file))
            unlink(directory.file("b.txt"))
            #expect(await recorder.waitFor(.deleted, directory.file("b.txt")))
            mkdir(directory.file("sub"), 0o755)
            #expect(await recorder.waitFor(.created, directory.file("sub")))
            #expect(recorder.all.first { $0.path == BytePath(directory.file("sub")) }?.isDirectory == true)
        }

        @Test func movesOutAndInArriveAsDeletedAndCreated() async throws {
            let directory = TemporaryDirectory()
            let outside = TemporaryDirectory()
            defer {
                directory.remove()
                outside.remove()
            }
            writeFile(directory.file("leaving"))
            writeFile(outside.file("arriving"))
            let (monitor, recorder) = try EventRecorder.started(directory.path)
            defer { monitor.stopMonitoring() }
            rename(directory.file("leaving"), outside.file("left"))
            rename(outside.file("arriving"), directory.file("arrived"))
            #expect(await recorder.waitFor(.deleted, directory.file("leaving")))
            #expect(await recorder.waitFor(.created, directory.file("arrived")))
        }

        @Test func reportsTheWatchedDirectoryDeletedThenRemoved() async throws {
            let parent = TemporaryDirectory()
            defer { parent.remove() }
            let watched = parent.file("watched")
            mkdir(watched, 0o755)
            let (monitor, recorder) = try EventRecorder.started(watched)
            defer { monitor.stopMonitoring() }
            rmdir(watched)
            #expect(await recorder.waitFor(.watchedObjectDeleted, watched))
            #expect(await recorder.waitFor(.watchRemoved, watched))
        }

        @Test func reportsTheWatchedDirectoryMoved() async throws {
            let parent = TemporaryDirectory()
            defer { parent.remove() }
            let watched = parent.file("watched")
            mkdir(watched, 0o755)
            let (monitor, recorder) = try EventRecorder.started(watched)
            defer { monitor.stopMonitoring() }
            rename(watched, parent.file("elsewhere"))
            #expect(await recorder.waitFor(.watchedObjectMoved, watched))
        }

        @Test func singleFileSurvivesThreeAtomicSavesInARow() async throws {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            let file = directory.file("config.txt")
            writeFile(file, "v0")
            let (monitor, recorder) = try EventRecorder.started(file)
            defer { monitor.stopMonitoring() }
            for round in 1...3 {
                recorder.clear()
                let temporary = directory.file(".config.txt.swp\(round)")
                writeFile(temporary, "v\(round)")
                #expect(rename(temporary, file) == 0)
                #expect(await recorder.waitFor(.modified, file), "atomic save \(round) not reported")
            }
            recorder.clear()
            writeFile(directory.file("unrelated"))
            writeFile(file, "in place")
            #expect(await recorder.waitFor(.closedAfterWrite, file))
            #expect(recorder.all.allSatisfy { $0.path == BytePath(file) }, "\(recorder.all)")
        }

        @Test func singleFileDeletedThenRecreated() async throws {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            let file = directory.file("f")
            writeFile(file)
            let (monitor, recorder) = try EventRecorder.started(file)
            defer { monitor.stopMonitoring() }
            unlink(file)
            #expect(await recorder.waitFor(.watchedObjectDeleted, file))
            writeFile(file)
            #expect(await recorder.waitFor(.created, file))
            rename(file, directory.file("g"))
            #expect(await recorder.waitFor(.watchedObjectMoved, directory.file("g"), oldPath: file))
        }

        @Test func recursiveModeSeesFilesInSubdirectoriesCreatedLater() async throws {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            mkdir(directory.file("existing"), 0o755)
            let (monitor, recorder) = try EventRecorder.started(directory.path, recursive: true)
            defer { monitor.stopMonitoring() }
            writeFile(directory.file("existing/one"))
            #expect(await recorder.waitFor(.created, directory.file("existing/one")))
            // Created in a burst: the deep file may exist before its directory's watch does (scan after add).
            mkdir(directory.file("new"), 0o755)
            mkdir(directory.file("new/deep"), 0o755)
            writeFile(directory.file("new/deep/early"))
            #expect(await recorder.waitFor(.created, directory.file("new/deep/early")))
            writeFile(directory.file("new/deep/late"))
            #expect(await recorder.waitFor(.created, directory.file("new/deep/late")))
        }

        @Test func recursiveModeMapsWatchesAfterRemovalReuseAndRename() async throws {
            let directory = TemporaryDirectory()
            let outside = TemporaryDirectory()
            defer {
                directory.remove()
                outside.remove()
            }
            let (monitor, recorder) = try EventRecorder.started(directory.path, recursive: true)
            defer { monitor.stopMonitoring() }
            mkdir(directory.file("a"), 0o755)
            #expect(await recorder.waitFor(.created, directory.file("a")))
            rmdir(directory.file("a"))
            #expect(await recorder.waitFor(.deleted, directory.file("a")))
            mkdir(directory.file("b"), 0o755)
            mkdir(directory.file("a"), 0o755)
            writeFile(directory.file("a/f"))
            writeFile(directory.file("b/g"))
            #expect(await recorder.waitFor(.created, directory.file("a/f")))
            #expect(await recorder.waitFor(.created, directory.file("b/g")))
            rename(directory.file("a"), directory.file("c"))
            #expect(await recorder.waitFor(.moved, directory.file("c"), oldPath: directory.file("a")))
            writeFile(directory.file("c/h"))
            #expect(await recorder.waitFor(.created, directory.file("c/h")))
            #expect(!recorder.contains(.created, directory.file("a/h")))
            rename(directory.file("c"), outside.file("c"))
            #expect(await recorder.waitFor(.deleted, directory.file("c")))
            writeFile(outside.file("c/outside"))
            writeFile(directory.file("b/after"))
            #expect(await recorder.waitFor(.created, directory.file("b/after")))
            #expect(!recorder.all.contains { $0.path.lossyString.hasSuffix("/outside") })
        }

        @Test func missingPathIsNotFound() {
            let monitor = FileSystemMonitor(path: "/nonexistent/vigil/path")
            #expect(throws: SensorError.notFound(path: "/nonexistent/vigil/path")) { try monitor.startMonitoring() }
            #expect(!monitor.isMonitoring)
            #expect(!monitor.availability.isAvailable)
        }

        @Test func startStopStartAndNothingAfterStop() async throws {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            let (monitor, recorder) = try EventRecorder.started(directory.path)
            try monitor.startMonitoring()
            #expect(monitor.isMonitoring)
            writeFile(directory.file("first"))
            #expect(await recorder.waitFor(.created, directory.file("first")))
            monitor.stopMonitoring()
            monitor.stopMonitoring()
            #expect(!monitor.isMonitoring)
            try monitor.startMonitoring()
            writeFile(directory.file("second"))
            #expect(await recorder.waitFor(.created, directory.file("second")))

            // A writer keeps producing events while the monitor stops; nothing may arrive after stop returns.
            let countBefore = recorder.all.count
            let writing = Task.detached {
                for index in 0..<400 { writeFile(directory.file("busy\(index % 20)")) }
            }
            _ = await eventually { recorder.all.count > countBefore }  // the writer's events are arriving
            monitor.stopMonitoring()
            let countAtStop = recorder.all.count
            await writing.value
            // inotify queues an event in the write itself: a registration still live would be dispatched by now.
            try await EventLoop.shared.barrier()
            #expect(recorder.all.count == countAtStop)
        }

        @Test func stopFromInsideACallback() async throws {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            let monitor = FileSystemMonitor(path: directory.path)
            let recorder = EventRecorder(monitor) { _ in monitor.stopMonitoring() }
            try monitor.startMonitoring()
            for index in 0..<20 { writeFile(directory.file("f\(index)")) }
            #expect(await eventually { !monitor.isMonitoring })
            try await EventLoop.shared.barrier()
            #expect(recorder.all.count == 1)
            try monitor.startMonitoring()
            writeFile(directory.file("again"))
            #expect(await eventually { recorder.all.count == 2 })
            #expect(!monitor.isMonitoring)
        }

        @Test func thousandStartStopCyclesLeakNoDescriptor() throws {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            let monitor = FileSystemMonitor(path: directory.path, recursive: true)
            try monitor.startMonitoring()
            monitor.stopMonitoring()
            let before = InotifyKernelTests.inotifyDescriptorCount()
            try monitor.startMonitoring()
            #expect(InotifyKernelTests.inotifyDescriptorCount() == before + 1, "a running monitor holds one")
            monitor.stopMonitoring()
            for _ in 0..<1000 {
                try monitor.startMonitoring()
                monitor.stopMonitoring()
            }
            #expect(InotifyKernelTests.inotifyDescriptorCount() <= before)
        }

        @Test func startStopCyclesLeakNoDescriptorThreadOrObject() async throws {
            try await SourceLifecycleLeakTests.checkStartStopCycles(name: "files") { directory in
                FileSystemMonitor(path: directory, recursive: true)
            }
        }

        @Test func startIsPromptAndAReleasedRunningMonitorFreesItsDescriptors() async throws {
            try await SourceLifecycleLeakTests.checkReleaseWhileRunning(name: "files") { directory in
                FileSystemMonitor(path: directory, recursive: true)
            }
        }
    }
}
