import Dispatch
import Foundation
import Glibc
import Synchronization
import Testing
import Vigil
import VigilPrometheus
import VigilSensors
import VigilTestSupport

@Suite(.timeLimit(.minutes(10)))
struct MetricsServerTests {
    /// A started server on a free loopback port, on a loop of its own, with its log lines collected.
    final class Harness {
        let loop = EventLoop()
        let exporter = MetricsExporter()
        let log = LogLines()
        let server: MetricsServer
        let port: UInt16

        init(_ configure: (inout MetricsServer.Configuration) -> Void = { _ in }) throws {
            var configuration = MetricsServer.Configuration(address: try ListenAddress(host: "127.0.0.1", port: 0))
            configure(&configuration)
            let log = self.log
            server = MetricsServer(
                exporter: exporter, configuration: configuration, eventLoop: loop,
                log: { line in log.append(line) })
            try server.start()
            port = try #require(server.port)
            try exporter.add(BehaviorSubject(21.5), name: "test_temp_celsius", help: "T.", labels: ["zone": "a"])
        }

        var logLines: [String] { log.lines }

        deinit {
            server.stop()
            loop.shutdown()
        }
    }

    @Test func servesMetricsOverAKeptAliveConnection() throws {
        let harness = try Harness()
        let client = try LoopbackClient(port: harness.port)
        for _ in 0..<3 {
            client.send("GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let response = try #require(client.readResponse())
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
            #expect(response.headers["connection"] == nil)
            #expect(response.body.contains("test_temp_celsius{zone=\"a\"} 21.5\n"))
        }
        #expect(harness.server.connectionCount == 1)
    }

    @Test func answersPipelinedRequestsInOrder() throws {
        let harness = try Harness()
        let client = try LoopbackClient(port: harness.port)
        client.send(
            "GET /nope HTTP/1.1\r\nHost: a\r\n\r\nHEAD /metrics HTTP/1.1\r\nHost: a\r\n\r\nGET /metrics HTTP/1.1\r\nHost: a\r\n\r\n"
        )
        #expect(client.readResponse()?.status == 404)
        let head = try #require(client.readResponse(head: true))
        let get = try #require(client.readResponse())
        #expect(head.status == 200)
        #expect(Int(head.headers["content-length"] ?? "") == get.body.utf8.count)
        #expect(get.body.contains("test_temp_celsius"))
    }

    @Test func answersOtherMethodsWith405AndAllow() throws {
        let harness = try Harness()
        let client = try LoopbackClient(port: harness.port)
        client.send(
            "POST /metrics HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nbodyDELETE /x HTTP/1.1\r\nHost: a\r\n\r\n")
        for _ in 0..<2 {
            let response = try #require(client.readResponse())
            #expect(response.status == 405)
            #expect(response.headers["allow"] == "GET, HEAD")
        }
        client.send("GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(client.readResponse()?.status == 200)
    }

    @Test(arguments: [
        ("BAD REQUEST LINE HERE\r\n\r\n", 400), ("GET /metrics HTTP/1.1\r\nBad Header\r\n\r\n", 400),
        ("GET /metrics HTTP/3.0\r\n\r\n", 505),
        ("GET /metrics HTTP/1.1\r\nX-Big: " + String(repeating: "x", count: 9000) + "\r\n\r\n", 431),
        ("GET /metrics HTTP/1.1\r\nX-Big: " + String(repeating: "x", count: 20000), 431),
    ])
    func refusesBadRequestsAndCloses(request: String, status: Int) throws {
        let harness = try Harness()
        let client = try LoopbackClient(port: harness.port)
        client.send(request)
        let response = try #require(client.readResponse())
        #expect(response.status == status)
        #expect(response.headers["connection"] == "close")
        #expect(client.waitForClose())
        #expect(harness.logLines.contains { $0.contains("answered \(status)") })
    }

    @Test func closesAfterAnHTTP10Response() throws {
        let harness = try Harness()
        let client = try LoopbackClient(port: harness.port)
        client.send("GET /metrics HTTP/1.0\r\n\r\n")
        #expect(client.readResponse()?.status == 200)
        #expect(client.waitForClose())
    }

    @Test func closesASlowClientAndSaysSo() throws {
        let harness = try Harness { $0.requestTimeout = .milliseconds(300) }
        let client = try LoopbackClient(port: harness.port)
        client.send("GET /metr")
        let start = ContinuousClock.now
        #expect(client.waitForClose())
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(harness.logLines.contains { $0.contains("no complete request") })
        // The server still answers others.
        let other = try LoopbackClient(port: harness.port)
        other.send("GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(other.readResponse()?.status == 200)
    }

    @Test func closesAnIdleConnectionSilently() throws {
        let harness = try Harness { $0.idleTimeout = .milliseconds(200) }
        let client = try LoopbackClient(port: harness.port)
        client.send("GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(client.readResponse()?.status == 200)
        #expect(client.waitForClose())
        #expect(harness.logLines.isEmpty)
    }

    @Test func servesConcurrentScrapes() throws {
        let harness = try Harness()
        let successes = Atomic(0)
        let port = harness.port
        concurrently(8) { _ in
            guard let client = try? LoopbackClient(port: port) else { return }
            for _ in 0..<25 {
                client.send("GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n")
                if client.readResponse()?.body.contains("test_temp_celsius") == true {
                    successes.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(successes.load(ordering: .relaxed) == 200)
    }

    @Test func dropsAClientThatNeverReadsWithoutBlockingOthers() throws {
        let harness = try Harness { $0.requestTimeout = .milliseconds(500) }
        // A body of several megabytes, far beyond what the socket buffers hold.
        let line = String(repeating: "x", count: 1000)
        harness.exporter.add(collector: {
            [
                MetricFamily(
                    name: "test_big", help: "Big.", type: .gauge,
                    samples: (0..<4000).map { MetricSample(labels: ["pad": line + String($0)], value: 1) })
            ]
        })
        let hog = try LoopbackClient(port: harness.port)
        var shrink: Int32 = 4096
        setsockopt(hog.fd, SOL_SOCKET, SO_RCVBUF, &shrink, socklen_t(MemoryLayout<Int32>.size))
        hog.send(String(repeating: "GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n", count: 50))
        let other = try LoopbackClient(port: harness.port)
        other.send("GET /nope HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(other.readResponse()?.status == 404)
        #expect(
            eventually { harness.logLines.contains { $0.contains("its response was not read") } },
            "the server did not drop the client that never reads: \(harness.logLines)")
        // The reason is logged before the connection closes and leaves the server's set.
        #expect(eventually { harness.server.connectionCount == 1 }, "\(harness.server.connectionCount) open")
    }

    /// At the limit a new connection evicts the oldest idle one (idle keep-alive connections cannot lock scrapes out,
    /// as 64 of them did for a minute); only when every connection is being answered does it get 503.
    @Test func atTheLimitANewConnectionEvictsTheOldestIdleOrGets503() throws {
        let harness = try Harness { $0.maximumConnections = 2 }
        let first = try LoopbackClient(port: harness.port)
        let second = try LoopbackClient(port: harness.port)
        for client in [first, second] {
            client.send("GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(client.readResponse()?.status == 200)
        }
        let third = try LoopbackClient(port: harness.port)
        third.send("GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(third.readResponse()?.status == 200)
        #expect(first.waitForClose(), "the oldest idle connection makes room")
        #expect(harness.logLines.contains { $0.contains("evicted") }, "\(harness.logLines)")
        second.send("GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(second.readResponse()?.status == 200)

        // Two clients that never read a response far larger than the socket buffers: both stay in `sending`. About
        // 16 MB: 4 MB (the response before) fitted in a send buffer autotuned to tcp_wmem's 4 MB maximum plus the
        // client's window, so a loaded run saw the server finish sending and evict that client as idle.
        let line = String(repeating: "x", count: 1000)
        harness.exporter.add(collector: {
            [
                MetricFamily(
                    name: "test_big", help: "Big.", type: .gauge,
                    samples: (0..<16000).map { MetricSample(labels: ["pad": line + String($0)], value: 1) })
            ]
        })
        for client in [second, third] {
            var shrink: Int32 = 4096
            setsockopt(client.fd, SOL_SOCKET, SO_RCVBUF, &shrink, socklen_t(MemoryLayout<Int32>.size))
            client.send("GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n")
        }
        // Both are being answered once the first bytes of their responses arrived (the rest cannot).
        #expect(
            eventually {
                [second, third].allSatisfy { client in
                    var byte: UInt8 = 0
                    return recv(client.fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)) == 1
                }
            })
        let fourth = try LoopbackClient(port: harness.port)
        #expect(fourth.readResponse()?.status == 503)
        #expect(harness.logLines.contains { $0.contains("(the limit)") }, "\(harness.logLines)")
    }

    /// A connection that says nothing is closed after the short first-byte timeout, not the idle minute.
    @Test func closesAConnectionThatSaysNothingAfterTheFirstByteTimeout() throws {
        let harness = try Harness { $0.firstByteTimeout = .milliseconds(200) }
        let client = try LoopbackClient(port: harness.port)
        let start = ContinuousClock.now
        #expect(client.waitForClose())
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    /// A client that pipelines hundreds of requests gets one answered per turn of the loop: a scrape that arrives
    /// meanwhile is rendered after a few of them, not after the whole batch (8 such clients pushed others past 1 s).
    @Test func aPipeliningClientGetsOneAnswerATurn() throws {
        let harness = try Harness()
        let renders = Atomic(0)
        harness.exporter.add(collector: {
            usleep(1_000)  // a render that costs something, as a real exposition does
            let count = renders.add(1, ordering: .relaxed).newValue
            return [
                MetricFamily(
                    name: "test_render", help: "R.", type: .gauge, samples: [MetricSample(value: Double(count))])
            ]
        })
        // The 400 small answers fit in the socket's buffers: the pipeliner reads them all at the end.
        let pipeliner = try LoopbackClient(port: harness.port)
        pipeliner.send(String(repeating: "GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n", count: 400))
        #expect(eventually { renders.load(ordering: .relaxed) > 0 }, "the server began on the batch")
        let scrape = try LoopbackClient(port: harness.port)
        scrape.send("GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n")
        let body = try #require(scrape.readResponse()?.body)
        let line = try #require(body.split(separator: "\n").first { $0.hasPrefix("test_render ") })
        let rendered = try #require(Double(line.split(separator: " ")[1]))
        #expect(rendered < 100, "the scrape was rendered \(rendered)th, behind the pipelined batch")
        var answered = 0
        while answered < 400, pipeliner.readResponse()?.status == 200 { answered += 1 }
        #expect(answered == 400)
    }

    /// Compressed when the scraper asks for gzip (as Prometheus does), byte for byte the plain exposition once
    /// `gzip -d` undoes it; plain otherwise.
    @Test(arguments: ["gzip", "deflate, gzip;q=0.5", "*", "gzip;q=0", "identity", nil])
    func compressesWithGzipWhenAsked(acceptEncoding: String?) async throws {
        let harness = try Harness()
        let client = try LoopbackClient(port: harness.port)
        client.send("GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n")
        let plain = try #require(client.readResponse())
        let field = acceptEncoding.map { "Accept-Encoding: \($0)\r\n" } ?? ""
        client.send("GET /metrics HTTP/1.1\r\nHost: a\r\n\(field)\r\n")
        let response = try #require(client.readResponse())
        #expect(response.headers["vary"] == "Accept-Encoding")
        let wanted = ["gzip", "deflate, gzip;q=0.5", "*"].contains(acceptEncoding ?? "")
        #expect(response.headers["content-encoding"] == (wanted ? "gzip" : nil))
        guard wanted else { return #expect(response.bytes == plain.bytes) }
        let scratch = TemporaryDirectory("vigil-gzip")
        defer { scratch.remove() }
        #expect(FileManager.default.createFile(atPath: scratch.path + "/body.gz", contents: Data(response.bytes)))
        let gzip = try #require(ChildProcess.installed("gzip"), "gzip is in every Debian")
        let decompressed = try ChildProcess(gzip, ["-dc", scratch.path + "/body.gz"])
        #expect(await decompressed.waitForExit())
        #expect(decompressed.exitStatus == 0, "\(decompressed.standardError)")
        #expect(decompressed.standardOutput == plain.body)
    }

    @Test func servesALandingPageAtTheRoot() throws {
        let harness = try Harness()
        let client = try LoopbackClient(port: harness.port)
        client.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n")
        let response = try #require(client.readResponse())
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "text/html; charset=utf-8")
        #expect(response.body.contains(#"<a href="/metrics">"#))
    }

    /// RFC 9112 §3.2: no Host in HTTP/1.1, or two, is 400.
    @Test(arguments: ["GET /metrics HTTP/1.1\r\n\r\n", "GET /metrics HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"])
    func refusesAMissingOrRepeatedHostWith400(request: String) throws {
        let harness = try Harness()
        let client = try LoopbackClient(port: harness.port)
        client.send(request)
        #expect(client.readResponse()?.status == 400)
    }

    /// The listen backlog is the kernel's somaxconn (`ss` shows a listener's backlog as its Send-Q), not 64.
    @Test func listensWithABacklogOfSomaxconn() async throws {
        let harness = try Harness()
        let somaxconn = (readWholeFile("/proc/sys/net/core/somaxconn") ?? "").trimmingCharacters(
            in: .whitespacesAndNewlines)
        guard let ss = ChildProcess.installed("ss") else {
            try skip("ss is not installed (Debian package iproute2; .ci/setup installs it)", expectedUnderCI: false)
        }
        let listing = try ChildProcess(ss, ["-Hltn", "sport = :\(harness.port)"])
        #expect(await listing.waitForExit())
        let fields = listing.standardOutput.split(separator: " ", omittingEmptySubsequences: true)
        #expect(fields.count >= 3 && String(fields[2]) == somaxconn, "\(listing.standardOutput)")
    }

    @Test func stopsListeningOnStop() throws {
        let harness = try Harness()
        let client = try LoopbackClient(port: harness.port)
        harness.server.stop()
        #expect(client.waitForClose())
        #expect(harness.server.port == nil)
        #expect(!canConnect(port: harness.port))
    }

    @Test(arguments: [
        ("127.0.0.1:9464", "127.0.0.1", 9464), ("0.0.0.0:0", "0.0.0.0", 0), ("[::1]:80", "::1", 80),
    ])
    func parsesListenAddresses(text: String, host: String, port: UInt16) throws {
        let address = try ListenAddress(parsing: text)
        #expect(address.host == host && address.port == port)
        #expect(address.description == text)
    }

    @Test(arguments: ["localhost:9464", "127.0.0.1", "127.0.0.1:99999", "::1:80", "[::1]80", ":9464", "1.2.3.4:x"])
    func refusesInvalidListenAddresses(text: String) {
        #expect(throws: MetricsServerError.self) { try ListenAddress(parsing: text) }
    }
}

/// Log lines collected from any thread.
final class LogLines: Sendable {
    private let storage = FutexMutex<[String]>([])

    var lines: [String] { storage.withLock { $0 } }

    func append(_ line: String) { storage.withLock { $0.append(line) } }
}
