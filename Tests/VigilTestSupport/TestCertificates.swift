import Glibc
import Testing
import VigilSensors

/// A throwaway PKI made with the `openssl` tool in a temporary folder: a CA, a server certificate for `localhost` and
/// `127.0.0.1` signed by it, a client certificate signed by it, and a second CA that signed nothing here (to see a
/// certificate refused). 2048-bit RSA, valid for a day.
package final class TestCertificates: Sendable {
    package let folder: TemporaryDirectory
    package var caFile: String { folder.file("ca.crt") }
    package var otherCAFile: String { folder.file("other-ca.crt") }
    package var serverCertificateFile: String { folder.file("server.crt") }
    package var serverKeyFile: String { folder.file("server.key") }
    package var clientCertificateFile: String { folder.file("client.crt") }
    package var clientKeyFile: String { folder.file("client.key") }

    /// Makes the certificates; skips the test (a failure under CI) when the `openssl` tool or OpenSSL 3's library is
    /// not installed.
    package init() async throws {
        let openssl = try Self.openssl()
        folder = TemporaryDirectory("vigil-tls")
        folder.write("server.ext", "subjectAltName=DNS:localhost,IP:127.0.0.1\n")
        folder.write("client.ext", "extendedKeyUsage=clientAuth\n")
        let path = folder.path
        let steps: [[String]] = [
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=Vigil Test CA",
                "-keyout", "\(path)/ca.key", "-out", "\(path)/ca.crt",
            ],
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=Another CA",
                "-keyout", "\(path)/other-ca.key", "-out", "\(path)/other-ca.crt",
            ],
            [
                "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-keyout", "\(path)/server.key",
                "-out", "\(path)/server.csr",
            ],
            [
                "x509", "-req", "-in", "\(path)/server.csr", "-CA", "\(path)/ca.crt", "-CAkey", "\(path)/ca.key",
                "-CAcreateserial", "-days", "1", "-extfile", "\(path)/server.ext", "-out", "\(path)/server.crt",
            ],
            [
                "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=vigil-client", "-keyout", "\(path)/client.key",
                "-out", "\(path)/client.csr",
            ],
            [
                "x509", "-req", "-in", "\(path)/client.csr", "-CA", "\(path)/ca.crt", "-CAkey", "\(path)/ca.key",
                "-CAcreateserial", "-days", "1", "-extfile", "\(path)/client.ext", "-out", "\(path)/client.crt",
            ],
        ]
        for step in steps {
            let run = try ChildProcess(openssl, step)
            let ended = await run.waitForExit(within: 60)
            try #require(ended && run.exitStatus == 0, "openssl \(step[0]) failed: \(run.standardError)")
        }
        // Mosquitto runs as its own user when started as root, and must read its key.
        chmod(path, 0o755)
        for name in ["server.key", "client.key"] { chmod(folder.file(name), 0o644) }
    }

    /// The `openssl` tool, once OpenSSL 3's library is known to load; skips the test when either is missing.
    private static func openssl() throws -> String {
        do {
            try TLSContext.checkAvailable()
        } catch {
            try skip("\(error)", expectedUnderCI: false)
        }
        guard let openssl = ChildProcess.installed("openssl") else {
            try skip(
                "the openssl tool is not installed (Debian package openssl; .ci/setup installs it)",
                expectedUnderCI: false)
        }
        return openssl
    }
}
