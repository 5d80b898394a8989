import Testing
import VigilSensors
import VigilTestSupport

extension InotifyKernelTests {
    /// A file event carries the time its inotify read returned.
    @Suite(.timeLimit(.minutes(10))) struct FileSystemEventTimeTests {
        @Test func anEventIsStampedWhenItWasReadAndLaterEventsLater() async throws {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            let (monitor, recorder) = try EventRecorder.started(directory.path)
            defer { monitor.stopMonitoring() }

            let beforeFirst = ContinuousClock.now
            #expect(writeFile(directory.file("a")))
            #expect(await recorder.waitFor(.created, BytePath(directory.file("a"))))
            let afterFirst = ContinuousClock.now
            let beforeSecond = ContinuousClock.now
            #expect(writeFile(directory.file("b")))
            #expect(await recorder.waitFor(.created, BytePath(directory.file("b"))))
            let afterSecond = ContinuousClock.now

            let first = try #require(recorder.all.first { $0.path == BytePath(directory.file("a")) })
            let second = try #require(recorder.all.first { $0.path == BytePath(directory.file("b")) })
            #expect(beforeFirst <= first.time.monotonic && first.time.monotonic <= afterFirst)
            #expect(beforeSecond <= second.time.monotonic && second.time.monotonic <= afterSecond)
            #expect(first.time < second.time)
        }
    }
}
