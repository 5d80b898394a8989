import Glibc
import Testing
import VigilTestSupport

/// `vigil publish` to `mqtts://` brokers: a real Mosquitto listening with TLS, a password file and, in one test, a
/// required client certificate; the README's TLS example, run.
@Suite(.timeLimit(.minutes(10))) struct VigilPublishTLSTests {
    private func requireMosquitto() throws {
        if let missing = Mosquitto.missing { try skip(missing, expectedUnderCI: false) }
    }

    private func online(_ subscriber: ChildProcess, _ prefix: String) async -> Bool {
        await eventually(within: 20) {
            subscriber.standardOutput.split(separator: "\n").contains { $0 == "\(prefix)/status online" }
                && subscriber.standardOutput.contains("\(prefix)/memory {")
        }
    }

    @Test func publishesThroughTLSWithAPasswordAsTheReadmeShows() async throws {
        try requireMosquitto()
        let certificates = try await TestCertificates()
        let broker = try await Mosquitto(users: ["vigil": "pass word"], tls: certificates)
        let subscriber = try broker.subscribe("vigil/#", user: ("vigil", "pass word"))
        let vigil = try ChildProcess(
            vigil: [
                "publish", "--broker", "mqtts://localhost:\(broker.port)", "--ca-file", certificates.caFile,
                "--username", "vigil", "--topic", "vigil/tls", "memory",
            ], environment: ["VIGIL_MQTT_PASSWORD": "pass word"])
        #expect(await online(subscriber, "vigil/tls"), "\(subscriber.standardOutput)\n\(vigil.standardError)")
        #expect(await vigil.stop() == 143)
        await subscriber.stop()
        await broker.stop()
    }

    @Test func aBrokerCertificateFromAnotherCAIsRefusedAndSaid() async throws {
        try requireMosquitto()
        let certificates = try await TestCertificates()
        let broker = try await Mosquitto(tls: certificates)
        let vigil = try ChildProcess(
            vigil: [
                "publish", "--broker", "mqtts://localhost:\(broker.port)", "--ca-file", certificates.otherCAFile,
                "--topic", "vigil/tls", "memory",
            ])
        let said = await eventually(within: 20) {
            vigil.standardError.contains("TLS: the server's certificate was refused (")
        }
        #expect(said, "\(vigil.standardError)")
        // Refused certificates are retried like any failed connection (the broker may be mid-rotation).
        #expect(vigil.isRunning)
        #expect(await vigil.stop() == 143)
        await broker.stop()
    }

    @Test func presentsAClientCertificateToABrokerThatRequiresOne() async throws {
        try requireMosquitto()
        let certificates = try await TestCertificates()
        let broker = try await Mosquitto(tls: certificates, requiresClientCertificate: true)
        let subscriber = try broker.subscribe("vigil/#")
        let anonymous = try ChildProcess(
            vigil: [
                "publish", "--broker", "mqtts://127.0.0.1:\(broker.port)", "--ca-file", certificates.caFile,
                "--topic", "vigil/anonymous", "memory",
            ])
        let known = try ChildProcess(
            vigil: [
                "publish", "--broker", "mqtts://127.0.0.1:\(broker.port)", "--ca-file", certificates.caFile,
                "--cert-file", certificates.clientCertificateFile, "--key-file", certificates.clientKeyFile,
                "--topic", "vigil/known", "memory",
            ])
        #expect(await online(subscriber, "vigil/known"), "\(subscriber.standardOutput)\n\(known.standardError)")
        #expect(
            await eventually(within: 20) { anonymous.standardError.contains("reconnecting") },
            "\(anonymous.standardError)")
        #expect(!subscriber.standardOutput.contains("vigil/anonymous/"))
        #expect(await known.stop() == 143)
        #expect(await anonymous.stop() == 143)
        await subscriber.stop()
        await broker.stop()
    }

    @Test(arguments: [
        (
            ["--broker", "mqtt://localhost", "--ca-file", "/ca.crt"],
            "--ca-file is for TLS: give the broker as mqtts://"
        ),
        (["--broker", "mqtts://localhost", "--cert-file", "/c.crt"], "--cert-file and --key-file go together"),
        (["--broker", "https://localhost"], "--broker takes mqtt://HOST[:PORT] or mqtts://HOST[:PORT]"),
    ])
    func refusesTLSOptionsThatCannotWork(arguments: [String], message: String) async throws {
        let child = try ChildProcess(vigil: ["publish"] + arguments)
        #expect(await child.waitForExit())
        #expect(child.exitStatus == 2)
        #expect(child.standardError.contains(message), "\(child.standardError)")
    }

    @Test func aCAFileThatCannotBeReadEndsWithStatusOne() async throws {
        let child = try ChildProcess(
            vigil: ["publish", "--broker", "mqtts://localhost", "--ca-file", "/nonexistent/ca.crt", "memory"])
        #expect(await child.waitForExit())
        #expect(child.exitStatus == 1)
        #expect(
            child.standardError.contains("TLS: cannot use the CA file /nonexistent/ca.crt: No such file or directory"),
            "\(child.standardError)")
    }
}
