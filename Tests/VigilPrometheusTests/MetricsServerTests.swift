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
        client.send("GET /nope HTTP/1.1\r\n\r\nHEAD /metrics HTTP/1.1\r\n\r\nGET /metrics HTTP/1.1\r\n\r\n")
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
        client.send("POST /metrics HTTP/1.1\r\nContent-Length: 4\r\n\r\nbodyDELETE /x HTTP/1.1\r\n\r\n")
        for _ in 0..<2 {
            let response = try #require(client.readResponse())
            #expect(response.status == 405)
            #expect(response.headers["allow"] == "GET, HEAD")
        }
        client.send("GET /metrics HTTP/1.1\r\n\r\n")
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
        other.send("GET /metrics HTTP/1.1\r\n\r\n")
        #expect(other.readResponse()?.status == 200)
    }

    @Test func closesAnIdleConnectionSilently() throws {
        let harness = try Harness { $0.idleTimeout = .milliseconds(200) }
        let client = try LoopbackClient(port: harness.port)
        client.send("GET /metrics HTTP/1.1\r\n\r\n")
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
                client.send("GET /metrics HTTP/1.1\r\n\r\n")
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
        hog.send(String(repeating: "GET /metrics HTTP/1.1\r\n\r\n", count: 50))
        let other = try LoopbackClient(port: harness.port)
        other.send("GET /nope HTTP/1.1\r\n\r\n")
        #expect(other.readResponse()?.status == 404)
        #expect(
            eventually { harness.logLines.contains { $0.contains("its response was not read") } },
            "the server did not drop the client that never reads: \(harness.logLines)")
        // The reason is logged before the connection closes and leaves the server's set.
        #expect(eventually { harness.server.connectionCount == 1 }, "\(harness.server.connectionCount) open")
    }

    @Test func refusesConnectionsBeyondTheLimitWith503() throws {
        let harness = try Harness { $0.maximumConnections = 2 }
        let first = try LoopbackClient(port: harness.port)
        let second = try LoopbackClient(port: harness.port)
        for client in [first, second] {
            client.send("GET /metrics HTTP/1.1\r\n\r\n")
            #expect(client.readResponse()?.status == 200)
        }
        let third = try LoopbackClient(port: harness.port)
        #expect(third.readResponse()?.status == 503)
        #expect(harness.logLines.contains { $0.contains("the limit") })
        first.send("GET /metrics HTTP/1.1\r\n\r\n")
        #expect(first.readResponse()?.status == 200)
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
