import Dispatch
import Glibc
import Testing
import VigilPrometheus
import VigilSensors
import VigilTestSupport

/// The metrics server over TLS and behind basic authentication, as a web configuration file sets it up.
@Suite(.timeLimit(.minutes(5))) struct MetricsServerTLSTests {
    /// "U*U" at cost 5, from OpenBSD's bcrypt test vectors.
    static let hash = "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"
    static let request = "GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n"

    static func harness(_ certificates: TestCertificates, _ change: (inout MetricsServer.TLS) -> Void = { _ in })
        throws -> MetricsServerTests.Harness
    {
        var tls = MetricsServer.TLS(
            certificateFile: certificates.serverCertificateFile, keyFile: certificates.serverKeyFile)
        change(&tls)
        return try MetricsServerTests.Harness { $0.web = MetricsServer.WebConfiguration(tls: tls) }
    }

    static func client(
        _ port: UInt16, trusting caFile: String, certificate: (String, String)? = nil, timeout: Int = 10
    ) throws -> LoopbackClient {
        let context = try TLSContext.client(
            caFile: caFile, certificateFile: certificate?.0, keyFile: certificate?.1)
        return try LoopbackClient(port: port, timeout: timeout, tls: context)
    }

    @Test func servesScrapesOverTLSOnAKeptAliveConnection() async throws {
        let certificates = try await TestCertificates()
        let harness = try Self.harness(certificates)
        let client = try Self.client(harness.port, trusting: certificates.caFile)
        for _ in 0..<3 {
            #expect(client.send(Self.request), "\(String(describing: client.tlsError))")
            let response = try #require(client.readResponse())
            #expect(response.status == 200)
            #expect(response.body.contains("test_temp_celsius{zone=\"a\"} 21.5\n"))
        }
        #expect(harness.server.connectionCount == 1)
    }

    @Test func aCertificateFromAnotherCAIsRefusedByTheClient() async throws {
        let certificates = try await TestCertificates()
        let harness = try Self.harness(certificates)
        let client = try Self.client(harness.port, trusting: certificates.otherCAFile)
        #expect(!client.send(Self.request))
        #expect("\(String(describing: client.tlsError))".contains("certificate"))
    }

    @Test func plainHTTPOnTheTLSPortIsDroppedAndTheServerGoesOn() async throws {
        let certificates = try await TestCertificates()
        let harness = try Self.harness(certificates)
        let plain = try LoopbackClient(port: harness.port)
        plain.send(Self.request)
        #expect(plain.readResponse() == nil)
        #expect(
            await eventually(within: 10) { harness.logLines.contains { $0.contains("TLS failed") } },
            "\(harness.logLines)")
        let client = try Self.client(harness.port, trusting: certificates.caFile)
        client.send(Self.request)
        #expect(client.readResponse()?.status == 200)
    }

    @Test func aRequiredClientCertificateIsVerified() async throws {
        let certificates = try await TestCertificates()
        let harness = try Self.harness(certificates) {
            $0.clientAuthType = .requireAndVerifyClientCert
            $0.clientCAFile = certificates.caFile
        }
        let anonymous = try Self.client(harness.port, trusting: certificates.caFile)
        anonymous.send(Self.request)
        #expect(anonymous.readResponse() == nil, "no answer without a client certificate")
        let known = try Self.client(
            harness.port, trusting: certificates.caFile,
            certificate: (certificates.clientCertificateFile, certificates.clientKeyFile))
        known.send(Self.request)
        #expect(known.readResponse()?.status == 200)
    }

    @Test func aCertificateOrKeyThatCannotBeUsedFailsStart() async throws {
        let certificates = try await TestCertificates()
        var tls = MetricsServer.TLS(certificateFile: "/nonexistent/server.crt", keyFile: certificates.serverKeyFile)
        var server = MetricsServer(
            exporter: MetricsExporter(),
            configuration: MetricsServer.Configuration(
                address: try ListenAddress(host: "127.0.0.1", port: 0), web: MetricsServer.WebConfiguration(tls: tls)))
        #expect(
            throws: MetricsServerError.tls(
                "cannot use the certificate file /nonexistent/server.crt: No such file or directory")
        ) {
            try server.start()
        }
        tls = MetricsServer.TLS(
            certificateFile: certificates.serverCertificateFile, keyFile: certificates.clientKeyFile)
        server = MetricsServer(
            exporter: MetricsExporter(),
            configuration: MetricsServer.Configuration(
                address: try ListenAddress(host: "127.0.0.1", port: 0), web: MetricsServer.WebConfiguration(tls: tls)))
        let error = #expect(throws: MetricsServerError.self) { try server.start() }
        #expect("\(String(describing: error))".contains("key values mismatch"))
        #expect(server.port == nil)
    }

    @Test func basicAuthenticationGuardsEveryPath() throws {
        let harness = try MetricsServerTests.Harness {
            $0.web = MetricsServer.WebConfiguration(basicAuthUsers: ["prometheus": Self.hash])
        }
        let client = try LoopbackClient(port: harness.port)
        for (request, head) in [
            ("GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n", false),
            ("GET / HTTP/1.1\r\nHost: a\r\n\r\n", false),
            ("HEAD /metrics HTTP/1.1\r\nHost: a\r\n\r\n", true),
            ("GET /metrics HTTP/1.1\r\nHost: a\r\nAuthorization: Basic cHJvbWV0aGV1czpub3Bl\r\n\r\n", false),
        ] {
            client.send(request)
            let response = try #require(client.readResponse(head: head))
            #expect(response.status == 401)
            #expect(response.statusLine == "HTTP/1.1 401 Unauthorized")
            #expect(response.headers["www-authenticate"] == "Basic")
        }
        // prometheus:U*U
        client.send("GET /metrics HTTP/1.1\r\nHost: a\r\nAuthorization: Basic cHJvbWV0aGV1czpVKlU=\r\n\r\n")
        let allowed = try #require(client.readResponse())
        #expect(allowed.status == 200)
        #expect(allowed.body.contains("test_temp_celsius"))
        #expect(harness.logLines.contains { $0.contains("answered 401") })
    }

    /// bcrypt is slow on purpose; run on the loop, every wrong password would stall every scrape behind it. Eight
    /// guesses at cost 12 take about 2 s of checking: a scrape with known credentials is answered long before.
    @Test func passwordChecksNeverHoldTheLoop() async throws {
        let slow = "$2b$12$qLL1QE7IghicPyw7y/vz4uG3b6.1gan7MU3htVqJ1bMSWJfTtJf6i"
        // Generous timeouts: under load eight cost-12 checks in a row can take longer than the default 10 s.
        let harness = try MetricsServerTests.Harness {
            $0.web = MetricsServer.WebConfiguration(basicAuthUsers: ["prometheus": slow])
            $0.requestTimeout = .seconds(120)
        }
        let (port, server) = (harness.port, harness.server)
        // Off the concurrency pool: the guessers' answers take seconds of blocking reads.
        let outcome = await offThePool { () -> (elapsed: Duration, statuses: [Int?])? in
            // A first scrape puts its (refused) verdict in the cache: the scrapes below need no bcrypt of their own.
            guard let scraper = try? LoopbackClient(port: port) else { return nil }
            let known = "GET /metrics HTTP/1.1\r\nHost: a\r\nAuthorization: Basic cHJvbWV0aGV1czpub3Bl\r\n\r\n"
            scraper.send(known)
            guard scraper.readResponse()?.status == 401 else { return nil }
            // Every guesser is connected (accepted and watched by the loop) before any guess goes out, so the guesses
            // are all ready ahead of the scrape below.
            let guessers = (0..<BasicAuthenticator.maximumPending).compactMap { _ in
                try? LoopbackClient(port: port, timeout: 120)
            }
            guard eventually(timeout: 10, { server.connectionCount == guessers.count + 1 }) else { return nil }
            for (guess, guesser) in guessers.enumerated() {
                let credentials = BasicAuthenticatorTests.base64(Array("prometheus:guess\(guess)".utf8))
                guesser.send("GET /metrics HTTP/1.1\r\nHost: a\r\nAuthorization: Basic \(credentials)\r\n\r\n")
            }
            let start = ContinuousClock.now
            scraper.send(known)
            let status = scraper.readResponse()?.status
            let elapsed = ContinuousClock.now - start
            return (elapsed, [status] + guessers.map { $0.readResponse()?.status })
        }
        let (elapsed, statuses) = try #require(outcome, "the scraper or the guessers could not connect")
        #expect(elapsed < .seconds(1), "a cached answer waited \(elapsed) behind password checks")
        #expect(statuses == Array(repeating: 401, count: BasicAuthenticator.maximumPending + 1))
    }

    /// The verdict of a password check is answered in a turn of the loop of its own. The deadline timer used to
    /// close the connection when it ran first (a busy loop, a loaded machine): the check was over, so the wait no
    /// longer counted as the server's. Here the loop is held while the check runs past the request's deadline; then
    /// both the deadline and the answer are due, the deadline first.
    @Test func aVerdictWaitingForItsTurnOfTheLoopIsNotTimedOut() async throws {
        // Cost 14: about a second of checking, ten times the request timeout.
        let slow = "$2b$14$qLL1QE7IghicPyw7y/vz4uG3b6.1gan7MU3htVqJ1bMSWJfTtJf6i"
        let harness = try MetricsServerTests.Harness {
            $0.web = MetricsServer.WebConfiguration(basicAuthUsers: ["prometheus": slow])
            $0.requestTimeout = .milliseconds(100)
        }
        let (loop, server, port) = (harness.loop, harness.server, harness.port)
        let status = await offThePool { () -> Int? in
            guard let client = try? LoopbackClient(port: port, timeout: 30),
                eventually(timeout: 10, { server.connectionCount == 1 })
            else { return nil }
            let credentials = BasicAuthenticatorTests.base64(Array("prometheus:wrong".utf8))
            client.send("GET /metrics HTTP/1.1\r\nHost: a\r\nAuthorization: Basic \(credentials)\r\n\r\n")
            // The request is read before the hold: in a turn of the loop, ready sockets are handled before timers.
            let (held, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
            let hold = try? loop.schedule(after: .zero) {
                held.signal()
                release.wait()
            }
            guard hold != nil, held.wait(timeout: .now() + 10) == .success else { return nil }
            // The verdict is in once its turn is scheduled: one registration more on the held loop.
            let registrations = loop.registrationCount
            let decided = eventually(timeout: 60) { loop.registrationCount > registrations }
            release.signal()
            return decided ? client.readResponse()?.status : nil
        }
        #expect(status == 401, "\(harness.logLines)")
    }

    /// A request waits in the bounded queue of password checks; that wait is the server's, so a request timeout
    /// shorter than the queue never closes a client whose whole request has arrived.
    @Test func aRequestWaitingForItsPasswordCheckIsNotTimedOut() async throws {
        let slow = "$2b$12$qLL1QE7IghicPyw7y/vz4uG3b6.1gan7MU3htVqJ1bMSWJfTtJf6i"
        let harness = try MetricsServerTests.Harness {
            $0.web = MetricsServer.WebConfiguration(basicAuthUsers: ["prometheus": slow])
            $0.requestTimeout = .milliseconds(300)
        }
        let port = harness.port
        // Eight cost-12 checks in a row take about 2 s, far past the 300 ms request timeout.
        let statuses = await offThePool { () -> [Int?] in
            let guessers = (0..<BasicAuthenticator.maximumPending).compactMap { _ in
                try? LoopbackClient(port: port, timeout: 60)
            }
            for (guess, guesser) in guessers.enumerated() {
                let credentials = BasicAuthenticatorTests.base64(Array("prometheus:late\(guess)".utf8))
                guesser.send("GET /metrics HTTP/1.1\r\nHost: a\r\nAuthorization: Basic \(credentials)\r\n\r\n")
            }
            return guessers.map { $0.readResponse()?.status }
        }
        #expect(statuses == Array(repeating: 401, count: BasicAuthenticator.maximumPending), "\(harness.logLines)")
    }

    /// OpenSSL writes with write(2), which raises SIGPIPE on a connection the client reset; this test process keeps
    /// SIGPIPE's default action, so without the guard around each TLS call it would die here.
    @Test func aClientThatResetsWhileItsResponseIsWrittenCostsOnlyItsConnection() async throws {
        let certificates = try await TestCertificates()
        let harness = try Self.harness(certificates)
        // About 2 MB of exposition: many writes, most of them after the reset.
        _ = harness.exporter.add(collector: {
            [
                MetricFamily(
                    name: "test_bulk", help: "Bulk.", type: .gauge,
                    samples: (0..<40_000).map { MetricSample(labels: ["series": "s\($0)"], value: Double($0)) })
            ]
        })
        let (port, caFile, server) = (harness.port, certificates.caFile, harness.server)
        // Off the concurrency pool: the TLS reads and writes of 2 MB take seconds under a sanitizer.
        let body = await offThePool { () -> String? in
            for _ in 0..<5 {
                guard let client = try? Self.client(port, trusting: caFile), client.send(Self.request) else {
                    return nil
                }
                // Linger 0: close(2) sends RST, and the server's next writes fail with ECONNRESET, then EPIPE.
                var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                setsockopt(client.fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                shutdown(client.fd, Int32(SHUT_RDWR))
            }
            // Bounds for a loaded machine: the server renders and encrypts 2 MB for each of the five first, and a
            // ThreadSanitizer build beside other work took more than 20 s for them.
            guard eventually(timeout: 90, { server.connectionCount == 0 }),
                let client = try? Self.client(port, trusting: caFile, timeout: 60), client.send(Self.request)
            else { return nil }
            return client.readResponse()?.body
        }
        #expect(body?.contains("test_bulk{series=\"s39999\"} 39999") == true, "\(harness.logLines)")
    }
}
