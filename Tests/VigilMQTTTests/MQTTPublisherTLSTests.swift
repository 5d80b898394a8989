import Synchronization
import Testing
import Vigil
import VigilMQTT
import VigilTestSupport

/// The library's ``MQTTPublisher`` over TLS against a real `mosquitto`: the server's name is checked, QoS 1 goes
/// through, and files that cannot be used are an error of the initializer.
@Suite(.timeLimit(.minutes(5))) struct MQTTPublisherTLSTests {
    private func configuration(_ broker: Mosquitto, _ certificates: TestCertificates, serverName: String? = nil)
        -> MQTTPublisher.Configuration
    {
        var configuration = MQTTPublisher.Configuration(host: "127.0.0.1", port: broker.port, clientID: "tls-test")
        configuration.tls = MQTTPublisher.Configuration.TLS(caFile: certificates.caFile, serverName: serverName)
        configuration.reconnectDelay = .milliseconds(50)
        configuration.reconnectDelayLimit = .milliseconds(400)
        return configuration
    }

    @Test func qos1MessagesAreAcknowledgedOverTLS() async throws {
        if let missing = Mosquitto.missing { try skip(missing, expectedUnderCI: false) }
        let certificates = try await TestCertificates()
        let broker = try await Mosquitto(tls: certificates)
        let publisher = try MQTTPublisher(configuration(broker, certificates))
        publisher.start()
        #expect(await eventually(within: 15) { publisher.statistics.isConnected })
        // Larger than a TLS record (16 KiB), so a message spans several.
        let payload = [UInt8](repeating: 0x61, count: 40_000)
        for _ in 1...20 { try publisher.publish(MQTTMessage(topic: "tls/big", payload: payload, qos: .atLeastOnce)) }
        #expect(await eventually(within: 15) { publisher.statistics.acknowledged == 20 }, "\(publisher.statistics)")
        publisher.stop()
        await broker.stop()
    }

    @Test func aCertificateForAnotherNameIsRefused() async throws {
        if let missing = Mosquitto.missing { try skip(missing, expectedUnderCI: false) }
        let certificates = try await TestCertificates()
        let broker = try await Mosquitto(tls: certificates)
        let publisher = try MQTTPublisher(configuration(broker, certificates, serverName: "broker.example.org"))
        let reasons = Mutex<[String]>([])
        let subscription = publisher.events.subscribe { event in
            if case .connectionLost(let reason, _) = event { reasons.withLock { $0.append(reason) } }
        }
        publisher.start()
        #expect(
            await eventually(within: 15) {
                reasons.withLock { $0.contains { $0.contains("certificate was refused (hostname mismatch)") } }
            }, "\(reasons.withLock { $0 })")
        #expect(!publisher.statistics.isConnected)
        subscription.dispose()
        publisher.stop()
        await broker.stop()
    }

    @Test func filesThatCannotBeUsedAreAnErrorOfTheInitializer() async throws {
        var configuration = MQTTPublisher.Configuration(host: "localhost", clientID: "x")
        configuration.tls = MQTTPublisher.Configuration.TLS(caFile: "/nonexistent/ca.crt")
        #expect(throws: MQTTError.tls(reason: "cannot use the CA file /nonexistent/ca.crt: No such file or directory"))
        {
            try MQTTPublisher(configuration)
        }
        configuration.tls = MQTTPublisher.Configuration.TLS(certificateFile: "/c.crt")
        #expect(throws: MQTTError.self) { try MQTTPublisher(configuration) }
    }
}
