import Dispatch
import Glibc
import Testing
import Vigil
import VigilTestSupport

@testable import VigilSensors

extension InotifyKernelTests {
    /// Names: resolved on the resolver's thread through a stand-in for `getaddrinfo(3)`, again when `resolv.conf` (or
    /// the file its link points to) changes in a fake `/etc`, and an answer that a newer request made stale is dropped.
    /// Inside ``InotifyKernelTests``, whose gate keeps the inotify limit up while the watch starts.
    @Suite(.serialized, .timeLimit(.minutes(5)))
    struct ReachabilityNameTests {
        /// A stand-in resolver: each call counts, may be held until the test lets it go, and answers `127.0.0.N` with N
        /// the call's number, so a report says which call it came from.
        private final class Resolver: Sendable {
            private let calls = FutexMutex(0)
            private let held = FutexMutex<Set<Int>>([])
            private let released = DispatchSemaphore(value: 0)

            var count: Int { calls.withLock { $0 } }

            /// Holds call `number` until ``release()``.
            func hold(_ number: Int) { held.withLock { _ = $0.insert(number) } }

            func release() { released.signal() }

            func lookup(_ host: String) -> HostResolver.Outcome {
                let number = calls.withLock { count in
                    count += 1
                    return count
                }
                if held.withLock({ $0.contains(number) }) { released.wait() }
                guard host == "name.test" else { return .failed("Name or service not known") }
                return .addresses([IPAddress(family: .ipv4, bytes: [127, 0, 0, UInt8(number + 1)])!])
            }
        }

        private static func monitor(_ etc: TemporaryDirectory, _ resolver: Resolver, targets: [String] = ["name.test"])
            throws -> ReachabilityMonitor
        {
            ReachabilityMonitor(
                targets: try targets.map { try ReachTarget(parsing: $0) }, etcRoot: etc.path,
                lookup: { resolver.lookup($0) })
        }

        private static func address(_ monitor: ReachabilityMonitor, _ target: String = "name.test") -> String? {
            monitor.readings.value.value?.target(target)?.address?.description
        }

        @Test func aNameResolvesAndAFailureSaysWhy() async throws {
            let etc = TemporaryDirectory("vigil-reach-etc")
            defer { etc.remove() }
            etc.write("resolv.conf", "nameserver 192.0.2.53\n")
            let resolver = Resolver()
            let monitor = try Self.monitor(etc, resolver, targets: ["name.test", "nothing.test:80"])
            try monitor.startMonitoring()
            defer { monitor.stopMonitoring() }
            let resolved = await eventually(within: 20) {
                Self.address(monitor) != nil
                    && monitor.readings.value.value?.target("nothing.test:80")?.problem != .resolving
            }
            #expect(resolved, "\(monitor.readings.value)")
            let report = try #require(monitor.readings.value.value)
            #expect(report.target("name.test")?.route?.isLocal == true)
            #expect(report.target("nothing.test:80")?.problem == .dnsFailed(reason: "Name or service not known"))
            #expect(report.target("nothing.test:80")?.tcp == nil, "no probe without an address")
            #expect(
                report.description.contains("nothing.test:80: not reachable: DNS failed: Name or service not known"))
        }

        @Test func aReplacedResolvConfResolvesAgainAndTheStaleAnswerIsDropped() async throws {
            let etc = TemporaryDirectory("vigil-reach-etc")
            defer { etc.remove() }
            etc.write("resolv.conf", "nameserver 192.0.2.53\n")
            let resolver = Resolver()
            let monitor = try Self.monitor(etc, resolver)
            let seen = FutexMutex<[String]>([])
            let subscription = monitor.readings.subscribe { reading in
                if let address = reading.value?.target("name.test")?.address {
                    seen.withLock { $0.append("\(address)") }
                }
            }
            defer { subscription.dispose() }
            try monitor.startMonitoring()
            defer { monitor.stopMonitoring() }
            let first = await eventually(within: 20) { Self.address(monitor) != nil }
            #expect(first, "\(monitor.readings.value)")
            // The call after the first replace (N) is held; a second replace asks call N + 1, whose answer must win.
            // N is counted, not assumed: a loaded run has seen an extra resolution while the watch started.
            let held = resolver.count + 1
            resolver.hold(held)
            #expect(replaceFile(etc.file("resolv.conf"), "nameserver 192.0.2.54\n"))
            let asked = await eventually(within: 20) { resolver.count == held }
            #expect(asked)
            let requested = monitor.nameRequests[0]
            #expect(replaceFile(etc.file("resolv.conf"), "nameserver 192.0.2.55\n"))
            // Call N + 1 is queued behind the held call N once the monitor has seen the second replace (before, call
            // N's answer is still current): then let call N answer (stale), then call N + 1.
            #expect(await eventually(within: 20) { monitor.nameRequests[0] > requested })
            resolver.release()
            let current = await eventually(within: 20) { Self.address(monitor) == "127.0.0.\(held + 2)" }
            #expect(current, "\(monitor.readings.value)")
            let stale = "127.0.0.\(held + 1)"
            #expect(!seen.withLock { $0 }.contains(stale), "the stale answer was published: \(seen.withLock { $0 })")
        }

        @Test func aRetargetedLinkIsFollowed() async throws {
            let etc = TemporaryDirectory("vigil-reach-etc")
            defer { etc.remove() }
            etc.write("run/a/resolv.conf", "nameserver 192.0.2.53\n")
            etc.write("run/b/resolv.conf", "nameserver 192.0.2.54\n")
            #expect(symlink("run/a/resolv.conf", etc.file("resolv.conf")) == 0)
            let resolver = Resolver()
            let monitor = try Self.monitor(etc, resolver)
            try monitor.startMonitoring()
            defer { monitor.stopMonitoring() }
            #expect(await eventually(within: 20) { resolver.count == 1 && Self.address(monitor) != nil })
            // The link's target is replaced, as systemd-resolved does: seen through the target's directory.
            #expect(replaceFile(etc.file("run/a/resolv.conf"), "nameserver 192.0.2.55\n"))
            #expect(await eventually(within: 20) { resolver.count == 2 }, "calls: \(resolver.count)")
            // The link is pointed elsewhere atomically (ln -sfn through a rename).
            #expect(symlink("run/b/resolv.conf", etc.file("resolv.conf.new")) == 0)
            #expect(rename(etc.file("resolv.conf.new"), etc.file("resolv.conf")) == 0)
            #expect(await eventually(within: 20) { resolver.count == 3 }, "calls: \(resolver.count)")
            // The new target's directory is watched now.
            #expect(replaceFile(etc.file("run/b/resolv.conf"), "nameserver 192.0.2.56\n"))
            #expect(await eventually(within: 20) { resolver.count >= 4 }, "calls: \(resolver.count)")
            #expect(await eventually(within: 20) { Self.address(monitor) == "127.0.0.\(resolver.count + 1)" })
            // A write elsewhere in /etc asks nothing.
            let before = resolver.count
            etc.write("hostname", "other\n")
            monitor.refresh()
            #expect(await eventually(within: 20) { monitor.completedRounds > 0 })
            #expect(resolver.count == before)
        }

        /// `resolv.conf` → `run/resolvconf/resolv.conf` → `run/stub/resolv.conf`, as `resolvconf` and a resolver's
        /// stub chain them: a replace of the last file is seen, and so is a retarget of the middle link.
        @Test func aChainOfLinksIsFollowedToItsEnd() async throws {
            let etc = TemporaryDirectory("vigil-reach-etc")
            defer { etc.remove() }
            etc.write("run/stub/resolv.conf", "nameserver 192.0.2.53\n")
            etc.write("run/other/resolv.conf", "nameserver 192.0.2.54\n")
            #expect(mkdir(etc.file("run/resolvconf"), 0o755) == 0)
            #expect(symlink("../stub/resolv.conf", etc.file("run/resolvconf/resolv.conf")) == 0)
            #expect(symlink("run/resolvconf/resolv.conf", etc.file("resolv.conf")) == 0)
            let resolver = Resolver()
            let monitor = try Self.monitor(etc, resolver)
            try monitor.startMonitoring()
            defer { monitor.stopMonitoring() }
            #expect(await eventually(within: 20) { resolver.count == 1 && Self.address(monitor) != nil })
            #expect(replaceFile(etc.file("run/stub/resolv.conf"), "nameserver 192.0.2.55\n"))
            #expect(await eventually(within: 20) { resolver.count == 2 }, "calls: \(resolver.count)")
            // The middle link is pointed elsewhere; then the new end is replaced.
            #expect(symlink("../other/resolv.conf", etc.file("run/resolvconf/resolv.conf.new")) == 0)
            #expect(rename(etc.file("run/resolvconf/resolv.conf.new"), etc.file("run/resolvconf/resolv.conf")) == 0)
            #expect(await eventually(within: 20) { resolver.count == 3 }, "calls: \(resolver.count)")
            #expect(replaceFile(etc.file("run/other/resolv.conf"), "nameserver 192.0.2.56\n"))
            #expect(await eventually(within: 20) { resolver.count == 4 }, "calls: \(resolver.count)")
        }

        @Test func aStoppedMonitorsResolverDeliversNothing() async throws {
            let etc = TemporaryDirectory("vigil-reach-etc")
            defer { etc.remove() }
            let resolver = Resolver()
            resolver.hold(1)
            let monitor = try Self.monitor(etc, resolver)
            try monitor.startMonitoring()
            #expect(await eventually(within: 20) { resolver.count == 1 })
            let pendingBefore = monitor.readings.value
            monitor.stopMonitoring()
            resolver.release()
            // The answer comes after the stop: nothing is published and no round starts.
            #expect(await eventually(within: 2) { monitor.readings.value != pendingBefore } == false)
            #expect(!monitor.isMonitoring)
        }
    }
}
