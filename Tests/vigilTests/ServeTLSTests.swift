import Foundation
import Testing
import VigilTestSupport

/// `vigil serve --web-config` with node_exporter's file, scraped by a real Prometheus over TLS with basic auth: the
/// README's scrape configuration, run.
@Suite(.timeLimit(.minutes(5))) struct ServeTLSTests {
    /// "U*U" at cost 5, from OpenBSD's bcrypt test vectors.
    static let hash = "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"

    @Test func aRealPrometheusScrapesOverTLSWithBasicAuthAndIsRefusedWithoutIt() async throws {
        guard let prometheus = ChildProcess.installed("prometheus") else {
            try skip(
                "prometheus is not installed (Debian package prometheus; .ci/setup installs it)", expectedUnderCI: false
            )
        }
        let certificates = try await TestCertificates()
        let scratch = TemporaryDirectory("vigil-prometheus-tls")
        scratch.write(
            "web.yml",
            """
            tls_server_config:
              cert_file: \(certificates.serverCertificateFile)
              key_file: \(certificates.serverKeyFile)
            basic_auth_users:
              prometheus: \(Self.hash)

            """)
        let (serve, vigilPort) = try startServe(["--web-config", scratch.file("web.yml"), "memory"])
        #expect(serve.standardError.contains("https://127.0.0.1:\(vigilPort)/metrics (basic authentication)"))
        scratch.write("password", "U*U")
        scratch.write("wrong", "nope")
        /// A scrape job for vigil over TLS, with the password in `passwordFile`.
        func job(_ name: String, passwordFile: String) -> String {
            """
              - job_name: \(name)
                scheme: https
                tls_config:
                  ca_file: \(certificates.caFile)
                basic_auth:
                  username: prometheus
                  password_file: \(scratch.file(passwordFile))
                static_configs:
                  - targets: ["localhost:\(vigilPort)"]

            """
        }
        scratch.write(
            "prometheus.yml",
            """
            global:
              scrape_interval: 1s
            scrape_configs:

            """ + job("vigil", passwordFile: "password") + job("intruder", passwordFile: "wrong")
                + """
                  - job_name: plaintext
                    static_configs:
                      - targets: ["localhost:\(vigilPort)"]

                """)
        let (server, prometheusPort) = try await startPrometheus(prometheus, in: scratch)
        func query(_ expression: String) -> Double? { prometheusValue(port: prometheusPort, expression) }
        #expect(
            await eventually(within: 90) { query("up{job=\"vigil\"}") == 1 },
            "Prometheus never scraped vigil over TLS: \(server.standardError.suffix(2000))")
        #expect(await eventually(within: 30) { query("vigil_source_up{job=\"vigil\",source=\"memory\"}") == 1 })
        #expect(await eventually(within: 30) { query("up{job=\"intruder\"}") == 0 })
        #expect(await eventually(within: 30) { query("up{job=\"plaintext\"}") == 0 })
        let targets = LoopbackClient.get(port: prometheusPort, "/api/v1/targets")?.body ?? ""
        #expect(targets.contains("401 Unauthorized"), "\(targets.suffix(3000))")
        #expect(serve.standardError.contains("answered 401"))
        #expect(await serve.stop() == 143)
        #expect(await server.stop() != nil)
    }

    @Test func aWebConfigurationThatCannotBeUsedEndsServeWithStatusOne() async throws {
        let scratch = TemporaryDirectory("vigil-web-config")
        scratch.write("web.yml", "tls_server_config:\n  cert_file: missing.crt\n  key_file: missing.key\n")
        scratch.write("typo.yml", "basic_auth_user:\n  prometheus: x\n")
        for (file, message) in [
            ("web.yml", "TLS: cannot use the certificate file \(scratch.path)/missing.crt: No such file or directory"),
            ("typo.yml", "line 1: unknown setting basic_auth_user"),
        ] {
            let child = try ChildProcess(vigil: [
                "serve", "--listen", "127.0.0.1:0", "--web-config", scratch.file(file),
            ])
            #expect(await child.waitForExit())
            #expect(child.exitStatus == 1)
            #expect(child.standardError.contains(message), "\(child.standardError)")
        }
    }
}
