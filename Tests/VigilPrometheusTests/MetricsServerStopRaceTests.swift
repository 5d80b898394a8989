import Dispatch
import Glibc
import Testing
import Vigil
import VigilPrometheus
import VigilSensors
import VigilTestSupport

/// `stop()` racing the loop thread: as it admits and watches new connections, a descriptor the loop still watches is
/// never closed first (the event loop treats removing a closed descriptor as a Vigil bug and stops the process); as it
/// answers a request whose password was checked, the socket is not closed under the answer.
@Suite(.timeLimit(.minutes(5))) struct MetricsServerStopRaceTests {
    @Test func stoppingWhileConnectionsArriveNeverClosesAWatchedDescriptorFirst() async throws {
        let rounds = await offThePool { () -> Int in
            let loop = EventLoop()
            defer { loop.shutdown() }
            var rounds = 0
            for _ in 0..<300 {
                guard let address = try? ListenAddress(host: "127.0.0.1", port: 0) else { return rounds }
                let server = MetricsServer(
                    exporter: MetricsExporter(), configuration: MetricsServer.Configuration(address: address),
                    eventLoop: loop)
                guard (try? server.start()) != nil, let port = server.port else { return rounds }
                // Clients connect while the server stops: some are being admitted on the loop thread right then.
                let clients = (0..<8).compactMap { _ in try? LoopbackClient(port: port) }
                for client in clients { client.send("GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n") }
                server.stop()
                #expect(server.connectionCount == 0)
                withExtendedLifetime(clients) {}
                rounds += 1
            }
            return rounds
        }
        #expect(rounds == 300)
    }

    /// The answer to a request whose password the worker thread checked is written in a turn of the loop of its own.
    /// `stop()` from another thread used to close the socket without waiting for that turn, which then wrote to the
    /// closed number (over TLS, to whatever the number named next). Here the answer is held inside the server's log
    /// line, and `stop()` must not return until it is done.
    @Test func stopWaitsForAnAnswerBeingWrittenAfterAPasswordCheck() async throws {
        let loop = EventLoop()
        defer { loop.shutdown() }
        let answering = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let answered = DispatchSemaphore(value: 0)
        let stopReturned = FutexMutex(false)
        let stopReturnedWhileAnswering = FutexMutex(false)
        var configuration = MetricsServer.Configuration(address: try ListenAddress(host: "127.0.0.1", port: 0))
        configuration.web = MetricsServer.WebConfiguration(basicAuthUsers: ["prometheus": MetricsServerTLSTests.hash])
        let server = MetricsServer(
            exporter: MetricsExporter(), configuration: configuration, eventLoop: loop,
            log: { line in
                guard line.contains("answered 401") else { return }
                answering.signal()
                // Bounded: with the fix, stop() cannot return in this second, and the answer goes on after it.
                _ = release.wait(timeout: .now() + 1)
                if stopReturned.withLock({ $0 }) { stopReturnedWhileAnswering.withLock { $0 = true } }
                answered.signal()
            })
        try server.start()
        let port = try #require(server.port)
        let client = try LoopbackClient(port: port)
        let credentials = BasicAuthenticatorTests.base64(Array("prometheus:nope".utf8))
        client.send("GET /metrics HTTP/1.1\r\nHost: a\r\nAuthorization: Basic \(credentials)\r\n\r\n")
        let stopped = await offThePool { () -> Bool in
            guard answering.wait(timeout: .now() + 30) == .success else { return false }
            server.stop()
            stopReturned.withLock { $0 = true }
            release.signal()
            return answered.wait(timeout: .now() + 30) == .success
        }
        #expect(stopped, "no 401 was answered")
        #expect(!stopReturnedWhileAnswering.withLock { $0 }, "stop() returned while the answer was written")
        withExtendedLifetime(client) {}
    }
}
