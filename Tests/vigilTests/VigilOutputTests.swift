import Foundation
import Glibc
import Testing
import VigilSensors
import VigilTestSupport

extension InotifyKernelTests {
    /// What pipes can trust: one valid JSON envelope a line whatever a name holds, escaped readable lines, a writer
    /// that never blocks signals, write errors that end the run, and the exit statuses.
    @Suite(.timeLimit(.minutes(10))) struct VigilOutputTests {
        /// Names with a newline, an escape sequence, a quote, a backslash, a tab and a byte that is not UTF-8.
        static let hostileNames: [[UInt8]] = [
            Array("new\nline".utf8), Array("esc\u{1B}[31mred".utf8), Array("quote\"d".utf8),
            Array("back\\slash".utf8), Array("tab\there".utf8), BytePathFiles.latin1Cafe, Array("bell\u{07}".utf8),
        ]

        /// Runs `watch files DIRECTORY -e created` with `options`, creates a file of each hostile name, waits for a line
        /// each, removes the files and stops `vigil` with SIGINT.
        static func createHostileNames(in directory: TemporaryDirectory, options: [String]) async throws
            -> (ChildProcess, [BytePath])
        {
            let paths = hostileNames.map { BytePathFiles.path(directory.path, $0) }
            defer { for path in paths { BytePathFiles.remove(path) } }
            let vigil = try ChildProcess(vigil: ["watch", "files", directory.path, "-e", "created"] + options)
            #expect(await eventually { vigil.standardError.contains("watching") }, "\(vigil.standardError)")
            for path in paths { BytePathFiles.write(path) }
            #expect(
                await eventually { vigil.standardOutput.split(separator: "\n").count == paths.count },
                "\(vigil.standardOutput)")
            vigil.signal(SIGINT)
            #expect(await vigil.waitForExit())
            return (vigil, paths)
        }

        @Test func everyLineIsOneValidEnvelopeForHostileNames() async throws {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            let (vigil, paths) = try await Self.createHostileNames(in: directory, options: ["--json"])
            #expect(vigil.exitStatus == 130)
            let objects = try VigilOutput.objects(vigil.standardOutput)
            #expect(objects.count == paths.count)
            var seen: [[UInt8]] = []
            for object in objects {
                #expect(VigilOutput.isRFC3339Microseconds(object["time"]), "\(object)")
                #expect(object["source"] as? String == "files")
                #expect(object["status"] as? String == "ok")
                #expect(object["event"] as? String == "created")
                if let bytes = object["path"] as? [Int] {
                    seen.append(bytes.map { UInt8($0) })
                    #expect(String(validating: seen.last ?? [], as: UTF8.self) == nil, "bytes only when not UTF-8")
                } else {
                    seen.append(Array(try #require(object["path"] as? String).utf8))
                }
            }
            #expect(Set(seen) == Set(paths.map(\.bytes)), "every name arrives exactly, byte for byte")
        }

        @Test func readableLinesEscapeControlCharactersOneEventALine() async throws {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            let (vigil, paths) = try await Self.createHostileNames(in: directory, options: ["-t"])
            let lines = vigil.standardOutput.split(separator: "\n")
            #expect(lines.count == paths.count, "\(vigil.standardOutput)")
            #expect(!vigil.standardOutput.contains("\u{1B}") && !vigil.standardOutput.contains("\u{07}"))
            for line in lines {
                #expect(
                    line.hasPrefix("[") && VigilOutput.isRFC3339Microseconds(line.dropFirst().prefix(27).description))
                #expect(line.contains("] files: created \(directory.path)/"), "\(line)")
            }
        }

        /// Runs `watch files DIRECTORY --json` into a pipe nobody reads yet, then writes a file 20,000 times: about
        /// three events a write, far more than the pipe (64 KiB) and the backlog (10,000 lines) hold. Returns the
        /// process, the pipe's read end, and the process's resident memory (kB) before the flood.
        static func floodAnUnreadPipe(_ directory: TemporaryDirectory) async throws -> (ChildProcess, Int32, Int) {
            // Not inherited by the other tests' children, which would keep the pipe open.
            let pipe = try #require(closeOnExecPipe())
            let vigil = try ChildProcess(
                vigil: ["watch", "files", directory.path, "--json"], standardOutput: pipe.write)
            close(pipe.write)
            #expect(await eventually { vigil.standardError.contains("watching") }, "\(vigil.standardError)")
            let before = ProcessProbe.residentKilobytes(of: vigil.pid) ?? 0
            let file = directory.file("busy")
            for _ in 0..<20_000 { writeFile(file) }
            return (vigil, pipe.read, before)
        }

        @Test func aBlockedStandardOutputStillEndsPromptlyOnSIGINTWithBoundedMemory() async throws {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            let (vigil, reader, before) = try await Self.floodAnUnreadPipe(directory)
            defer { close(reader) }
            defer { if vigil.isRunning { vigil.signal(SIGKILL) } }
            let resident = try #require(ProcessProbe.residentKilobytes(of: vigil.pid))
            // Growth, not the total; under AddressSanitizer freed memory also waits in its quarantine (256 MB).
            let quarantine = runsUnderAddressSanitizer ? 262_144 : 0
            #expect(
                resident - before < 100_000 + quarantine, "VmRSS \(before) kB before the flood, \(resident) kB after")
            let signalled = ContinuousClock.now
            vigil.signal(SIGINT)
            #expect(await eventually(within: 5) { !vigil.isRunning })
            // One second, as the issue asks; ThreadSanitizer slows the instrumented vigil's whole exit path several
            // times over, so under it (this test process is instrumented too) three.
            let underThreadSanitizer = runsUnderThreadSanitizer
            let bound: Duration = underThreadSanitizer ? .seconds(3) : .seconds(1)
            #expect(ContinuousClock.now - signalled < bound, "took \(ContinuousClock.now - signalled)")
            #expect(vigil.exitStatus == 130)
        }

        @Test func aSlowReaderLosesTheOldestLinesAndIsToldHowMany() async throws {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            let (vigil, reader, _) = try await Self.floodAnUnreadPipe(directory)
            defer { if vigil.isRunning { vigil.signal(SIGKILL) } }
            TestThread.detach {
                var buffer = [UInt8](repeating: 0, count: 65536)
                while read(reader, &buffer, buffer.count) > 0 {}
                close(reader)
            }
            // The notice comes once the writer has caught up, after the kernel's queue of up to 16,384 events has
            // been read and encoded; under ThreadSanitizer, with other work loading the two cores, 30 s were not
            // enough once.
            #expect(
                await eventually(within: 120) { vigil.standardError.contains("vigil: dropped ") },
                "\(vigil.standardError)")
            #expect(vigil.standardError.contains(" readings: standard output was too slow"))
            vigil.signal(SIGINT)
            #expect(await vigil.waitForExit())
            #expect(vigil.exitStatus == 130)
        }

        /// Two files written a byte at a time, in turn: one `modified` event a write, never merged by the kernel
        /// (it merges only an event identical to the last one queued), far more than vigil formats in the time.
        static func floodWithModifications(_ directory: TemporaryDirectory, events: Int) async {
            let files = ["a", "b"].map { open(directory.file($0), O_WRONLY | O_CREAT | O_CLOEXEC, 0o644) }
            defer { for fd in files { close(fd) } }
            await offThePool {
                var byte: UInt8 = 1
                for index in 0..<events { _ = write(files[index % 2], &byte, 1) }
            }
        }

        @Test func aStalledReaderKeepsTheBacklogBoundedAndIsToldWhatWasDropped() async throws {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            let pipe = try #require(closeOnExecPipe())
            defer { close(pipe.read) }
            let vigil = try ChildProcess(
                vigil: ["watch", "files", directory.path, "-e", "modified", "--json"], standardOutput: pipe.write)
            close(pipe.write)
            defer { if vigil.isRunning { vigil.signal(SIGKILL) } }
            #expect(await eventually { vigil.standardError.contains("watching") }, "\(vigil.standardError)")
            let before = try #require(ProcessProbe.residentKilobytes(of: vigil.pid))
            await Self.floodWithModifications(directory, events: 2_000_000)
            // The highest resident memory while vigil works through what it read. The readings waiting for the
            // output queue were unbounded: 2 million events grew it by about 90 MB, 3 million by 140 MB and
            // climbing; bounded, it grows by about 13 MB whatever the flood.
            var highest = before
            for _ in 0..<20 {
                highest = max(highest, ProcessProbe.residentKilobytes(of: vigil.pid) ?? 0)
                try await Task.sleep(for: .milliseconds(100))
            }
            // Not under AddressSanitizer: its quarantine keeps up to 256 MB of freed memory and its shadow grows with
            // every address the flood's allocations touch (370 MB measured, bounded backlog and all). ThreadSanitizer
            // shadows what is touched too, less.
            if !runsUnderAddressSanitizer {
                let shadow = runsUnderThreadSanitizer ? 65_536 : 0
                #expect(highest - before < 40_000 + shadow, "VmRSS \(before) kB before the flood, \(highest) kB after")
            }
            vigil.signal(SIGINT)
            #expect(await vigil.waitForExit())
            #expect(vigil.exitStatus == 130)
            // Standard output never moved, so the count comes at the end, on standard error.
            let notice = try #require(
                vigil.standardError.split(separator: "\n").first { $0.hasPrefix("vigil: dropped ") },
                "\(vigil.standardError)")
            let dropped = Int(notice.dropFirst("vigil: dropped ".count).prefix { $0.isNumber }) ?? 0
            #expect(dropped > 0, "\(notice)")
        }

        @Test func aFullDeviceEndsTheRunWithAMessageAndStatusOne() async throws {
            let full = open("/dev/full", O_WRONLY | O_CLOEXEC)
            try #require(full >= 0)
            defer { close(full) }
            let vigil = try ChildProcess(vigil: ["watch", "cpu", "--json"], standardOutput: full)
            defer { if vigil.isRunning { vigil.signal(SIGKILL) } }
            #expect(await vigil.waitForExit())
            #expect(vigil.exitStatus == 1)
            #expect(vigil.standardError.contains("vigil: error: standard output: No space left on device"))
        }

        /// The commands that print their text once and exit fail on a full device as `watch` does.
        @Test(arguments: [["list"], ["--help"], ["help", "--man"], ["completions", "bash"], ["--version"]])
        func aFullDeviceFailsEveryCommandWithStatusOne(_ arguments: [String]) async throws {
            let full = open("/dev/full", O_WRONLY | O_CLOEXEC)
            try #require(full >= 0)
            defer { close(full) }
            let vigil = try ChildProcess(vigil: arguments, standardOutput: full)
            #expect(await vigil.waitForExit())
            #expect(vigil.exitStatus == 1)
            #expect(
                vigil.standardError == "vigil: error: standard output: No space left on device\n",
                "\(vigil.standardError)")
        }

        @Test func aReaderThatGoesAwayEndsTheRunAtOnce() async throws {
            // Not inherited by the other tests' children, which would keep the pipe open.
            let pipe = try #require(closeOnExecPipe())
            let vigil = try ChildProcess(vigil: ["watch", "cpu", "memory", "--json"], standardOutput: pipe.write)
            close(pipe.write)
            defer { if vigil.isRunning { vigil.signal(SIGKILL) } }
            // Like `| head -1`: read the first line, then close the pipe while vigil has nothing more to write.
            var byte: UInt8 = 0
            while read(pipe.read, &byte, 1) == 1 && byte != UInt8(ascii: "\n") {}
            close(pipe.read)
            #expect(await eventually(within: 2) { !vigil.isRunning }, "still running after the reader left")
            #expect(await vigil.waitForExit())
            #expect(vigil.exitStatus == 1)
            #expect(vigil.standardError.contains("standard output: Broken pipe"), "\(vigil.standardError)")
        }

        @Test func idleWatchUsesAlmostNoCPU() async throws {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            let vigil = try ChildProcess(vigil: ["watch", "cpu", "memory", "files", directory.path])
            defer { if vigil.isRunning { vigil.signal(SIGKILL) } }
            #expect(await eventually { vigil.standardError.contains("watching") }, "\(vigil.standardError)")
            let before = try #require(ProcessProbe.cpuTicks(of: vigil.pid))
            let start = ContinuousClock.now
            try await Task.sleep(for: .seconds(2))  // the measurement itself: CPU time over two idle seconds
            let after = try #require(ProcessProbe.cpuTicks(of: vigil.pid))
            let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
            let fraction = Double(after - before) / ticksPerSecond / ((ContinuousClock.now - start) / .seconds(1))
            // Generous: idle is about 0 %; 10 % leaves room for a loaded CI machine and sanitizers.
            #expect(fraction < 0.10, "vigil used \(fraction * 100) % of a core while idle")
            vigil.signal(SIGTERM)
            #expect(await vigil.waitForExit())
            #expect(vigil.exitStatus == 143)
        }
    }
}

/// Non-finite and huge numbers from a fake IIO tree: a line is always written, and always valid JSON.
@Suite(.timeLimit(.minutes(10))) struct VigilNumberOutputTests {
    @Test(arguments: [
        ("in_illuminance_input", "1e308", 0, "ok"), ("in_illuminance_raw", "nan", 1, "unavailable"),
        ("in_illuminance_raw", "inf", 1, "unavailable"), ("in_illuminance_raw", "-inf", 1, "unavailable"),
    ])
    func hostileValuesStillPrintOneValidLine(file: String, value: String, status: Int32, readingStatus: String)
        async throws
    {
        let tree = FakeIIOTree()
        tree.addDevice(0, name: "als", files: [file: value + "\n", "in_illuminance_scale": "10\n"])
        let vigil = try ChildProcess(vigil: ["--sys-root", tree.root, "get", "light", "--json"])
        #expect(await vigil.waitForExit())
        #expect(vigil.exitStatus == status, "\(vigil.standardError)")
        let objects = try VigilOutput.objects(vigil.standardOutput)
        #expect(objects.count == 1, "\(vigil.standardOutput)")
        #expect(objects.first?["status"] as? String == readingStatus)
        #expect(objects.first?["source"] as? String == "light")
        if readingStatus == "unavailable" {
            #expect((objects.first?["reason"] as? String)?.isEmpty == false)
            #expect(vigil.standardError.contains("vigil: error: light: unavailable"))
        }
    }
}
