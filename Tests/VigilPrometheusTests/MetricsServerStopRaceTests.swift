import Glibc
import Testing
import VigilPrometheus
import VigilSensors
import VigilTestSupport

/// `stop()` racing the loop thread as it admits and watches new connections: a descriptor the loop still watches is
/// never closed first (the event loop treats removing a closed descriptor as a Vigil bug and stops the process).
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
}
