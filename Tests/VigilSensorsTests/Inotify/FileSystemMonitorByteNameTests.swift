import Glibc
import Testing
import VigilSensors
import VigilTestSupport

extension InotifyKernelTests {
    /// File names are bytes: names that are not UTF-8, that hold a newline, or that differ only in Unicode
    /// normalization are watched and reported exactly.
    @Suite(.timeLimit(.minutes(10))) struct FileSystemMonitorByteNameTests {
        @Test func reportsANameThatIsNotUTF8ByteExactly() async throws {
            let directory = TemporaryDirectory()
            let file = BytePathFiles.path(directory.path, BytePathFiles.latin1Cafe)
            defer {
                BytePathFiles.remove(file)
                directory.remove()
            }
            let (monitor, recorder) = try EventRecorder.started(directory.path)
            defer { monitor.stopMonitoring() }
            #expect(BytePathFiles.write(file))
            #expect(await recorder.waitFor(.closedAfterWrite, file), "\(recorder.all)")
            #expect(recorder.contains(.created, file))
            #expect(!file.isValidUTF8)
            #expect(file.description == directory.path + "/caf\\351")
        }

        @Test func watchesAFileWhoseNameIsNotUTF8() async throws {
            let directory = TemporaryDirectory()
            let file = BytePathFiles.path(directory.path, BytePathFiles.latin1Cafe)
            let lookalike = BytePath(file.lossyString)
            #expect(BytePathFiles.write(file))
            #expect(BytePathFiles.write(lookalike))
            defer {
                BytePathFiles.remove(file)
                directory.remove()
            }
            let monitor = FileSystemMonitor(path: file)
            let recorder = EventRecorder(monitor)
            #expect(monitor.availability.isAvailable)
            try monitor.startMonitoring()
            defer { monitor.stopMonitoring() }
            BytePathFiles.write(lookalike, "not the watched file")
            BytePathFiles.write(file, "changed")
            #expect(await recorder.waitFor(.closedAfterWrite, file), "\(recorder.all)")
            #expect(recorder.all.allSatisfy { $0.path == file }, "\(recorder.all)")
            #expect(recorder.all.filter { $0.kind == .closedAfterWrite }.count == 1, "\(recorder.all)")
        }

        @Test func aNameWithANewlineIsOneEventOnOneLine() async throws {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            let (monitor, recorder) = try EventRecorder.started(directory.path)
            defer { monitor.stopMonitoring() }
            let file = directory.file("two\nlines")
            writeFile(file)
            #expect(await recorder.waitFor(.created, file))
            let event = try #require(recorder.all.first { $0.kind == .created })
            #expect(event.path.string == file)
            #expect(event.description == "created \(directory.path)/two\\nlines")
        }

        @Test func nfcAndNFDSpellingsAreDifferentFiles() async throws {
            let directory = TemporaryDirectory()
            let nfc = BytePathFiles.path(directory.path, BytePathFiles.nfcE)
            let nfd = BytePathFiles.path(directory.path, BytePathFiles.nfdE)
            // As Swift strings the two are equal; as paths they are two files.
            #expect(nfc.lossyString == nfd.lossyString)
            #expect(nfc != nfd)
            #expect(BytePathFiles.write(nfc))
            defer {
                BytePathFiles.remove(nfc)
                BytePathFiles.remove(nfd)
                directory.remove()
            }
            let monitor = FileSystemMonitor(path: nfc)
            let recorder = EventRecorder(monitor)
            try monitor.startMonitoring()
            defer { monitor.stopMonitoring() }
            BytePathFiles.write(nfd, "the other file")
            BytePathFiles.write(nfc, "the watched file")
            #expect(await recorder.waitFor(.closedAfterWrite, nfc))
            // The kernel queues in order: the NFD file's events came first and must not be reported.
            let closes = recorder.all.filter { $0.kind == .closedAfterWrite }
            #expect(closes.count == 1, "\(recorder.all)")
            #expect(!recorder.contains(.created, nfc), "\(recorder.all)")
        }
    }
}
