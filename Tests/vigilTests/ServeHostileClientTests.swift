import Foundation
import Glibc
import Testing
import VigilTestSupport

/// `vigil serve` against the hostile clients it was probed with beside node_exporter: scrapes keep answering within a
/// second whatever the others do.
@Suite(.timeLimit(.minutes(5)))
struct ServeHostileClientTests {
    /// Starts `vigil serve memory` on a port chosen here, with `standardError` given, and waits until it listens.
    static func serve(standardError: Int32? = nil, wrapper: [String] = []) throws -> (ChildProcess, UInt16) {
        let port = try freeLoopbackPort()
        let child = try ChildProcess(
            vigil: ["serve", "--listen", "127.0.0.1:\(port)", "memory"], wrapper: wrapper, standardError: standardError)
        try #require(eventually(timeout: 30) { canConnect(port: port) || !child.isRunning }, "\(child.standardError)")
        return (child, port)
    }

    /// A scrape, and how long it took.
    static func timedScrape(port: UInt16) -> (status: Int?, seconds: Double) {
        let start = ContinuousClock.now
        let status = LoopbackClient.get(port: port, "/metrics")?.status
        let elapsed = ContinuousClock.now - start
        return (status, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// Every refused request logs a line; with a standard error nobody reads, the log must not block the event loop
    /// (it froze after about 64 KiB): lines are dropped and counted instead.
    @Test func aStandardErrorNobodyReadsNeverStallsScrapes() throws {
        let pipe = try #require(closeOnExecPipe())
        defer { close(pipe.read) }
        let (serve, port) = try Self.serve(standardError: pipe.write)
        close(pipe.write)
        var unanswered = 0
        for _ in 0..<2_000 where unanswered < 3 {
            guard let client = try? LoopbackClient(port: port, timeout: 2) else { continue }
            client.send("BAD REQUEST\r\n\r\n")
            if client.readResponse()?.status != 400 { unanswered += 1 }
        }
        #expect(unanswered == 0)
        let scrape = Self.timedScrape(port: port)
        #expect(scrape.status == 200 && scrape.seconds < 1, "\(scrape)")
        serve.signal(SIGKILL)
    }

    /// 64 connections that say nothing, and more that send a request a byte at a time, cannot lock scrapes out:
    /// the oldest idle (then the oldest slow) is evicted for a new one.
    @Test func idleAndSlowConnectionsCannotLockScrapesOut() async throws {
        let (serve, port) = try Self.serve()
        var hogs: [LoopbackClient] = []
        for index in 0..<80 {
            guard let client = try? LoopbackClient(port: port, timeout: 2) else { continue }
            if index % 2 == 1 { client.send("GET /metr") }
            hogs.append(client)
        }
        for _ in 0..<5 {
            let scrape = Self.timedScrape(port: port)
            #expect(scrape.status == 200 && scrape.seconds < 1, "\(scrape)")
        }
        #expect(serve.standardError.contains("evicted"), "\(serve.standardError)")
        withExtendedLifetime(hogs) {}
        #expect(await serve.stop() == 143)
    }

    /// Out of descriptors (`EMFILE`), `accept` pauses; once clients let go it accepts again.
    @Test func acceptRecoversAfterRunningOutOfDescriptors() async throws {
        guard let prlimit = ChildProcess.installed("prlimit") else {
            try skip("prlimit is not installed (Debian package util-linux)", expectedUnderCI: false)
        }
        let (serve, port) = try Self.serve(wrapper: [prlimit, "--nofile=48:48"])
        var hogs: [LoopbackClient] = []
        for _ in 0..<60 {
            if let client = try? LoopbackClient(port: port, timeout: 2) {
                client.send("GET /metr")
                hogs.append(client)
            }
        }
        #expect(eventually(timeout: 10) { serve.standardError.contains("accept failed") }, "\(serve.standardError)")
        hogs.removeAll()
        #expect(
            eventually(timeout: 10) { LoopbackClient.get(port: port, "/metrics")?.status == 200 },
            "\(serve.standardError)")
        #expect(await serve.stop() == 143)
    }
}
