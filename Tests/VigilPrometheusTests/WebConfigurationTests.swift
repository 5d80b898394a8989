import Testing
import VigilPrometheus
import VigilTestSupport

/// node_exporter's web configuration file, read as the exporter toolkit reads it: known settings applied, relative
/// paths taken from the file's folder, anything else refused with the line or setting named.
@Suite(.timeLimit(.minutes(5))) struct WebConfigurationTests {
    static let hash = "$2b$10$qLL1QE7IghicPyw7y/vz4uG3b6.1gan7MU3htVqJ1bMSWJfTtJf6i"

    func read(_ text: String) throws(MetricsServerError) -> MetricsServer.WebConfiguration {
        let folder = TemporaryDirectory("vigil-web-config")
        folder.write("web.yml", text)
        return try MetricsServer.WebConfiguration(contentsOfFile: folder.file("web.yml"))
    }

    func failure(_ text: String) -> String {
        do {
            _ = try read(text)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func readsTLSAndUsersWithPathsRelativeToTheFile() throws {
        let folder = TemporaryDirectory("vigil-web-config")
        folder.write(
            "web.yml",
            """
            ---
            # node_exporter's example, with comments
            tls_server_config:
              cert_file: server.crt   # next to this file
              key_file: "/etc/keys/server.key"
              client_auth_type: 'RequireAndVerifyClientCert'
              client_ca_file: ca/clients.crt
              min_version: TLS13
            http_server_config:
              http2: false
            basic_auth_users:
              prometheus: \(Self.hash)
              "grafana agent": '\(Self.hash)'

            """)
        let configuration = try MetricsServer.WebConfiguration(contentsOfFile: folder.file("web.yml"))
        let tls = try #require(configuration.tls)
        #expect(tls.certificateFile == folder.path + "/server.crt")
        #expect(tls.keyFile == "/etc/keys/server.key")
        #expect(tls.clientAuthType == .requireAndVerifyClientCert)
        #expect(tls.clientCAFile == folder.path + "/ca/clients.crt")
        #expect(tls.minimumVersion == .tls13)
        #expect(tls.maximumVersion == nil)
        #expect(configuration.basicAuthUsers == ["prometheus": Self.hash, "grafana agent": Self.hash])
    }

    @Test func anEmptyFileIsPlainHTTPForAll() throws {
        #expect(try read("") == MetricsServer.WebConfiguration())
        #expect(try read("# nothing\n\ntls_server_config:\nbasic_auth_users: {}\n") == MetricsServer.WebConfiguration())
    }

    @Test(arguments: [
        ("tls_server_config:\n  cert_file: a\n", "tls_server_config needs both cert_file and key_file"),
        (
            "tls_server_config:\n  cert_file: a\n  key_file: b\n  cipher_suites: x\n",
            "line 4: tls_server_config.cipher_suites is not supported"
        ),
        (
            "tls_server_config:\n  cert_file: a\n  key_file: b\n  client_auth_type: Always\n",
            "line 4: client_auth_type Always is not one of"
        ),
        (
            "tls_server_config:\n  cert_file: a\n  key_file: b\n  client_auth_type: RequireAndVerifyClientCert\n",
            "needs a client_ca_file"
        ),
        (
            "tls_server_config:\n  cert_file: a\n  key_file: b\n  min_version: SSL3\n",
            "line 4: min_version SSL3 is not one of"
        ),
        ("basic_auth_users:\n  alice: secret\n", "line 2: basic_auth_users.alice is not a bcrypt hash"),
        ("basic_auth_users:\n  alice: $1$abc$def\n", "line 2: basic_auth_users.alice is not a bcrypt hash"),
        ("web_listen: 1\n", "line 1: unknown setting web_listen"),
        (
            "http_server_config:\n  headers:\n    X-Frame-Options: deny\n",
            "line 2: http_server_config.headers is not supported"
        ),
        ("basic_auth_users:\n\talice: x\n", "line 2: a tab in indentation"),
        ("basic_auth_users:\n  - alice\n", "line 2: a list"),
        ("basic_auth_users:\n  alice: \"unterminated\n", "line 2: an unterminated quoted value"),
        ("basic_auth_users:\n  alice: x\n  alice: y\n", "line 3: alice appears twice"),
        ("tls_server_config:\n    cert_file: a\n  key_file: b\n", "line 3:"),
        ("tls_server_config: yes\n", "tls_server_config must be a mapping"),
    ])
    func refusesWhatItWouldNotApply(text: String, expected: String) {
        let message = failure(text)
        #expect(message.contains(expected), "\(message)")
        #expect(message.hasPrefix("web configuration /"), "the path is named: \(message)")
    }

    @Test func aMissingOrEndlessFileIsAClearError() throws {
        #expect(throws: MetricsServerError.self) {
            try MetricsServer.WebConfiguration(contentsOfFile: "/nonexistent/web.yml")
        }
        // /dev/zero never ends: refused as not a regular file, not read forever.
        #expect(throws: MetricsServerError.self) { try MetricsServer.WebConfiguration(contentsOfFile: "/dev/zero") }
    }
}
