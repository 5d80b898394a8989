import Glibc
import Testing
import VigilTestSupport

/// On a machine without OpenSSL 3 vigil builds and runs; only TLS is refused, saying what to install. Made real in a
/// mount namespace of the child's own, where `libssl.so.3` is `/dev/null` (so `dlopen` fails as if it were absent).
@Suite(.timeLimit(.minutes(5))) struct VigilWithoutOpenSSLTests {
    static let missing =
        "the system has no OpenSSL 3 (libssl.so.3), which TLS needs; on Debian or Ubuntu: apt-get install libssl3"

    /// `unshare -m`, hiding libssl, then the command.
    private func withoutOpenSSL() throws -> [String] {
        guard getuid() == 0, let unshare = ChildProcess.installed("unshare") else {
            try skip("hiding libssl.so.3 needs root and unshare(1)", expectedUnderCI: false)
        }
        let candidates = ["/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu", "/usr/lib64"]
        guard let library = candidates.map({ $0 + "/libssl.so.3" }).first(where: { access($0, F_OK) == 0 }),
            let resolved = realpath(library, nil)
        else {
            try skip("libssl.so.3 is not installed here, so there is nothing to hide", expectedUnderCI: false)
        }
        defer { free(resolved) }
        return [
            unshare, "-m", "sh", "-c", "mount --bind /dev/null '\(String(cString: resolved))' && exec \"$0\" \"$@\"",
        ]
    }

    @Test func publishOverTLSSaysWhatToInstallAndEndsWithStatusOne() async throws {
        let child = try ChildProcess(
            vigil: ["publish", "--broker", "mqtts://localhost", "memory"], wrapper: try withoutOpenSSL())
        #expect(await child.waitForExit())
        #expect(child.exitStatus == 1)
        #expect(child.standardError.contains(Self.missing), "\(child.standardError)")
    }

    @Test func serveWithTLSSaysWhatToInstallAndEndsWithStatusOne() async throws {
        let scratch = TemporaryDirectory("vigil-no-openssl")
        scratch.write("web.yml", "tls_server_config:\n  cert_file: a.crt\n  key_file: a.key\n")
        let child = try ChildProcess(
            vigil: ["serve", "--listen", "127.0.0.1:0", "--web-config", scratch.file("web.yml"), "memory"],
            wrapper: try withoutOpenSSL())
        #expect(await child.waitForExit())
        #expect(child.exitStatus == 1)
        #expect(child.standardError.contains(Self.missing), "\(child.standardError)")
    }

    @Test func everythingElseWorks() async throws {
        let child = try ChildProcess(vigil: ["get", "memory"], wrapper: try withoutOpenSSL())
        #expect(await child.waitForExit())
        #expect(child.exitStatus == 0, "\(child.standardError)")
        #expect(child.standardOutput.hasPrefix("memory: "))
    }
}
