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

        @Test func storageTakesMountPoints() async throws {
            let vigil = try ChildProcess(vigil: ["get", "storage", "/", "/tmp", "--json"])
            #expect(await vigil.waitForExit())
            #expect(vigil.exitStatus == 0, "\(vigil.standardError)")
            let object = try #require(try VigilOutput.objects(vigil.standardOutput).first)
            #expect((object["volumes"] as? [Any])?.count == 2, "\(object)")
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
