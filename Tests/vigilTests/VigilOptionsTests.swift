import Foundation
import Glibc
import Testing
import VigilTestSupport

extension InotifyKernelTests {
    /// `get`, `list --json`, `--version` and the options of `watch`, end to end.
    @Suite(.timeLimit(.minutes(10))) struct VigilOptionsTests {
        /// A procfs root with the memory and CPU files the `memory` and `cpu` sources read.
        static func fakeProc() -> FakeSysfsTree {
            let proc = FakeSysfsTree()
            proc.write("meminfo", "MemTotal: 1000 kB\nMemFree: 250 kB\nMemAvailable: 500 kB\n")
            proc.write("stat", "cpu  100 0 100 800 0 0 0 0 0 0\ncpu0 100 0 100 800 0 0 0 0 0 0\n")
            return proc
        }

        @Test func getPrintsEachCurrentReadingAndExits() async throws {
            let proc = Self.fakeProc()
            let vigil = try ChildProcess(vigil: ["--proc-root", proc.root, "get", "memory", "storage", "--json"])
            #expect(await vigil.waitForExit())
            #expect(vigil.exitStatus == 0, "\(vigil.standardError)")
            let objects = try VigilOutput.objects(vigil.standardOutput)
            #expect(Set(objects.compactMap { $0["source"] as? String }) == ["memory", "storage"])
            #expect(
                objects.allSatisfy { $0["status"] as? String == "ok" && VigilOutput.isRFC3339Microseconds($0["time"]) })
            #expect(objects.first { $0["source"] as? String == "memory" }?["usedFraction"] as? Double == 0.5)
            #expect(!vigil.standardError.contains("watching"), "get prints no banner")
        }

        @Test(arguments: [
            (["get", "files"], Int32(2), "has no current reading"), (["get"], 2, "needs at least one SOURCE"),
            (["--sys-root", "/nonexistent-vigil", "watch", "battery"], 2, "--sys-root \"/nonexistent-vigil\""),
            (["watch", "cpu", "--sys-root", ""], 2, "--sys-root \"\""),
            (["watch", "--proc-root", "/nonexistent-vigil"], 2, "--proc-root \"/nonexistent-vigil\""),
            (["get", "device", "--etc-root", "/nonexistent-vigil"], 2, "--etc-root \"/nonexistent-vigil\""),
            (["watch", "cpu", "--count", "0"], 2, "--count"), (["watch", "cpu", "--timeout", "soon"], 2, "--timeout"),
            (["watch", "files", "/tmp", "-e", "bogus"], 2, "unknown event"), (["list", "--once"], 2, "unknown option"),
            (["help", "nope"], 2, "unknown command \"nope\""), (["nope"], 2, "unknown command \"nope\""),
            (["completions", "fish"], 2, "bash or zsh"),
            (["watch", "devices", "--once"], 2, "devices reports events and has no first reading for --once"),
            (["watch", "cpu", "clock", "--once"], 2, "clock reports events"),
            (["watch", "cpu", "files", "/tmp", "--once"], 2, "files /tmp reports events"),
        ])
        func usageErrorsExitTwoWithOneLine(arguments: [String], status: Int32, message: String) async throws {
            let vigil = try ChildProcess(vigil: arguments)
            #expect(await vigil.waitForExit())
            #expect(vigil.exitStatus == status)
            #expect(vigil.standardError.split(separator: "\n").count == 1, "\(vigil.standardError)")
            #expect(vigil.standardError.hasPrefix("vigil: error: ") && vigil.standardError.contains(message))
        }

        @Test func aNamedSourceThisMachineLacksIsAnErrorUnlessWaitIsGiven() async throws {
            let sys = FakeSysfsTree()
            sys.makeDirectory("class/power_supply")
            let vigil = try ChildProcess(vigil: ["--sys-root", sys.root, "watch", "battery"])
            #expect(await vigil.waitForExit())
            #expect(vigil.exitStatus == 1)
            #expect(vigil.standardError.split(separator: "\n").count == 1, "\(vigil.standardError)")
            #expect(vigil.standardError.contains("vigil: error: battery: unavailable"))

            let waiting = try ChildProcess(vigil: [
                "--sys-root", sys.root, "watch", "battery", "--wait", "--timeout", "300ms",
            ])
            #expect(await waiting.waitForExit())
            #expect(waiting.exitStatus == 0, "\(waiting.standardError)")
        }

        @Test func onceCountAndTimeoutEndTheRunWithStatusZero() async throws {
            let proc = Self.fakeProc()
            let once = try ChildProcess(vigil: [
                "--proc-root", proc.root, "watch", "memory", "cpu", "cpu", "--once", "--json",
            ])
            #expect(await once.waitForExit())
            #expect(once.exitStatus == 0, "\(once.standardError)")
            let sources = try VigilOutput.objects(once.standardOutput).compactMap { $0["source"] as? String }
            #expect(sources.sorted() == ["cpu", "memory"], "one line each, the duplicate cpu watched once")
            #expect(once.standardError.contains("vigil: watching memory, cpu;"), "\(once.standardError)")

            let directory = TemporaryDirectory()
            defer { directory.remove() }
            let count = try ChildProcess(vigil: ["watch", "files", directory.path, "--count", "2", "-e", "created"])
            #expect(await eventually { count.standardError.contains("watching") })
            for name in ["a", "b", "c"] { writeFile(directory.file(name)) }
            #expect(await count.waitForExit())
            #expect(count.exitStatus == 0)
            #expect(count.standardOutput.split(separator: "\n").count == 2, "\(count.standardOutput)")

            let started = ContinuousClock.now
            let timeout = try ChildProcess(vigil: ["watch", "files", directory.path, "--timeout", "300ms"])
            #expect(await timeout.waitForExit())
            #expect(timeout.exitStatus == 0)
            #expect(ContinuousClock.now - started >= .milliseconds(300))
            #expect(timeout.standardOutput.isEmpty)
        }

        /// A bare `watch --once` watches every available source but waits only for the state sources' first
        /// readings: the event sources (devices, clock) may never say anything.
        @Test func aBareOnceEndsAfterEveryStateSourcesFirstReading() async throws {
            let once = try ChildProcess(vigil: ["watch", "--once", "--json"])
            #expect(await once.waitForExit())
            #expect(once.exitStatus == 0, "\(once.standardError)")
            let sources = try VigilOutput.objects(once.standardOutput).compactMap { $0["source"] as? String }
            #expect(sources.contains("cpu") && sources.contains("memory"), "\(sources)")
            #expect(!sources.contains("devices") && !sources.contains("clock"), "\(sources)")
            #expect(Set(sources).count == sources.count, "one line each: \(sources)")
        }

        @Test func intervalPollsFasterThanTheDefault() async throws {
            let proc = Self.fakeProc()
            let vigil = try ChildProcess(vigil: ["--proc-root", proc.root, "watch", "memory", "--interval", "50ms"])
            defer { if vigil.isRunning { vigil.signal(SIGKILL) } }
            #expect(await eventually { vigil.standardOutput.contains("memory: ") }, "\(vigil.standardError)")
            proc.write("meminfo", "MemTotal: 1000 kB\nMemFree: 100 kB\nMemAvailable: 100 kB\n")
            // The default interval is seconds; 50 ms polls see the change well within one.
            #expect(await eventually(within: 1) { vigil.standardOutput.split(separator: "\n").count >= 2 })
            vigil.signal(SIGINT)
            #expect(await vigil.waitForExit())
            #expect(!vigil.standardOutput.contains("waiting for the first reading"), "quiet by default")
        }

        /// `--every` prints each poll, changed or not, so `--interval 100ms --every --count 5` is five readings in
        /// about half a second of a memory that never changes; without it, only the first (a change) comes out.
        @Test func everyPrintsEachPollChangedOrNot() async throws {
            let proc = Self.fakeProc()
            let start = ContinuousClock.now
            let every = try ChildProcess(vigil: [
                "--proc-root", proc.root, "watch", "memory", "--interval", "100ms", "--every", "--count", "5",
                "--timeout", "10s", "--json",
            ])
            #expect(await every.waitForExit())
            #expect(every.exitStatus == 0, "\(every.standardError)")
            let times = try VigilOutput.objects(every.standardOutput).compactMap { $0["time"] as? String }
            #expect(times.count == 5 && Set(times).count == 5, "\(every.standardOutput)")
            #expect(ContinuousClock.now - start < .seconds(5))
            let changes = try ChildProcess(vigil: [
                "--proc-root", proc.root, "watch", "memory", "--interval", "100ms", "--count", "5", "--timeout", "1s",
            ])
            #expect(await changes.waitForExit())
            #expect(changes.standardOutput.split(separator: "\n").count == 1, "\(changes.standardOutput)")
            let events = try ChildProcess(vigil: ["watch", "devices", "clock", "--every"])
            #expect(await events.waitForExit())
            #expect(events.exitStatus == 2 && events.standardError.contains("do not poll"), "\(events.standardError)")
        }

        @Test func filesRecursiveEventsAndExclude() async throws {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            mkdir(directory.file("sub"), 0o755)
            let vigil = try ChildProcess(vigil: [
                "watch", "files", directory.path, "-r", "--events", "created,deleted", "--exclude", "*.o", "--json",
            ])
            #expect(await eventually { vigil.standardError.contains("watching") }, "\(vigil.standardError)")
            writeFile(directory.file("sub/deep.c"))
            writeFile(directory.file("skip.o"))
            unlink(directory.file("sub/deep.c"))
            #expect(await eventually { vigil.standardOutput.split(separator: "\n").count >= 2 })
            vigil.signal(SIGINT)
            #expect(await vigil.waitForExit())
            let objects = try VigilOutput.objects(vigil.standardOutput)
            #expect(objects.map { $0["event"] as? String } == ["created", "deleted"], "\(vigil.standardOutput)")
            #expect(objects.allSatisfy { $0["path"] as? String == directory.file("sub/deep.c") })
        }

        @Test func everyAvailableSourcePrintsValidEnvelopes() async throws {
            let vigil = try ChildProcess(vigil: ["watch", "--json", "--timeout", "3s"])
            #expect(await vigil.waitForExit())
            #expect(vigil.exitStatus == 0, "\(vigil.standardError)")
            let objects = try VigilOutput.objects(vigil.standardOutput)
            #expect(objects.count >= 3, "\(vigil.standardOutput)")
            for object in objects {
                #expect(VigilOutput.isRFC3339Microseconds(object["time"]), "\(object)")
                #expect(object["source"] is String)
                #expect(["ok", "unavailable"].contains(object["status"] as? String), "\(object)")
                #expect((object["status"] as? String == "unavailable") == (object["reason"] is String), "\(object)")
            }
        }

        /// Like `df`: every path that can be read, each with the mount point holding it (`findmnt --target` is the
        /// oracle), an error line for the one that cannot, and then status 1.
        @Test func storagePrintsEveryPathItCanWithItsMountPoint() async throws {
            let findmnt = try #require(ChildProcess.installed("findmnt"), "findmnt is in util-linux")
            let vigil = try ChildProcess(vigil: ["get", "storage", "/", "/tmp", "/nonexistent", "--json"])
            #expect(await vigil.waitForExit())
            #expect(vigil.exitStatus == 1)
            #expect(vigil.standardError.hasPrefix("vigil: error: storage /nonexistent: "), "\(vigil.standardError)")
            #expect(vigil.standardError.split(separator: "\n").count == 1, "\(vigil.standardError)")
            let volumes = try VigilOutput.objects(vigil.standardOutput).flatMap {
                $0["volumes"] as? [[String: Any]] ?? []
            }
            #expect(volumes.map { $0["mountPoint"] as? String } == ["/", "/tmp"], "\(vigil.standardOutput)")
            for volume in volumes {
                let path = volume["mountPoint"] as? String ?? ""
                let oracle = try ChildProcess(findmnt, ["-n", "-o", "TARGET", "--target", path])
                #expect(await oracle.waitForExit())
                let expected = oracle.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
                #expect(volume["mountedOn"] as? String == expected, "\(path): findmnt says \(expected)")
            }
            let human = try ChildProcess(vigil: ["get", "storage", "/tmp"])
            #expect(await human.waitForExit())
            let tmp = volumes.last?["mountedOn"] as? String ?? "?"
            #expect(
                human.standardOutput.contains(tmp == "/tmp" ? "/tmp: " : "/tmp on \(tmp): "), "\(human.standardOutput)")
        }

        /// `get` and `watch --once` print in the order the sources were named, as `df` does its paths, not in the
        /// order they answer: cpu's first reading takes a second, storage answers at once.
        @Test(arguments: [["get", "cpu", "storage", "/"], ["watch", "--once", "cpu", "storage"]])
        func onceLinesComeInTheOrderNamed(_ arguments: [String]) async throws {
            let vigil = try ChildProcess(vigil: arguments + ["--json"])
            #expect(await vigil.waitForExit())
            #expect(vigil.exitStatus == 0, "\(vigil.standardError)")
            let sources = try VigilOutput.objects(vigil.standardOutput).map { $0["source"] as? String }
            #expect(sources == ["cpu", "storage"], "\(vigil.standardOutput)")
        }

        @Test func listJSONAndVersion() async throws {
            let list = try ChildProcess(vigil: ["list", "--json"])
            #expect(await list.waitForExit())
            #expect(list.exitStatus == 0)
            let objects = try VigilOutput.objects(list.standardOutput)
            #expect(objects.count >= 20)
            #expect(objects.allSatisfy { $0["id"] is String && $0["available"] is Bool })
            #expect(objects.first { $0["id"] as? String == "files" }?["argument"] as? String == "PATH")

            let version = try ChildProcess(vigil: ["--version"])
            #expect(await version.waitForExit())
            #expect(version.exitStatus == 0)
            #expect(version.standardOutput.range(of: #"^vigil \d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil)
        }
    }
}
