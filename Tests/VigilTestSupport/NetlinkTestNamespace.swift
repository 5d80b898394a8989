import Foundation
import Glibc

/// A network namespace a test creates with `ip netns add vigil-test-<random>` and removes with ``remove()``.
///
/// Every command runs inside the namespace (`ip -n NAME …`, `ip netns exec NAME …`), so tests never touch the root
/// namespace's interfaces, and the random name keeps tests that run in parallel apart.
package final class NetlinkTestNamespace {
    package static var isRoot: Bool { geteuid() == 0 }

    package let name: String
    package var path: String { "/var/run/netns/" + name }

    package init() throws {
        name = "vigil-test-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        try Self.run(["ip", "netns", "add", name])
    }

    /// Deletes the namespace, and with it every interface created inside it.
    package func remove() {
        _ = try? Self.run(["ip", "netns", "del", name])
    }

    /// Runs `ip -n NAME args…` and returns its standard output.
    @discardableResult
    package func ip(_ arguments: String...) throws -> String {
        try Self.run(["ip", "-n", name] + arguments)
    }

    /// Runs `ip -n NAME -batch -` with `lines` on standard input.
    package func ipBatch(_ lines: [String]) throws {
        try Self.run(["ip", "-n", name, "-batch", "-"], input: lines.joined(separator: "\n") + "\n")
    }

    /// Runs a shell command inside the namespace (`ip netns exec NAME sh -c …`).
    package func shell(_ command: String) throws {
        try Self.run(["ip", "netns", "exec", name, "sh", "-c", command])
    }

    /// Runs a command inside the namespace (`ip netns exec NAME args…`) and returns its standard output.
    package func output(_ arguments: String...) throws -> String {
        try Self.run(["ip", "netns", "exec", name] + arguments)
    }

    /// Runs `ip -n NAME -j args…` and decodes its JSON array.
    package func json(_ arguments: String...) throws -> [[String: Any]] {
        let output = try Self.run(["ip", "-n", name, "-j"] + arguments)
        guard let array = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]] else {
            throw NetlinkTestFailure("ip -j \(arguments) printed no JSON array")
        }
        return array
    }

    /// Runs a command through `popen(3)` (Foundation's `Process` leaves objects LeakSanitizer reports), with
    /// `input` as standard input when given; throws with the command's standard error when it fails.
    @discardableResult
    private static func run(_ arguments: [String], input: String? = nil) throws -> String {
        let scratch = "/tmp/vigil-netns-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer {
            unlink(scratch + ".in")
            unlink(scratch + ".err")
        }
        var command = arguments.map(quoted).joined(separator: " ") + " 2>" + quoted(scratch + ".err")
        if let input {
            guard let file = fopen(scratch + ".in", "w") else { throw NetlinkTestFailure("cannot write \(scratch)") }
            fputs(input, file)
            fclose(file)
            command += " <" + quoted(scratch + ".in")
        }
        guard let pipe = popen(command, "r") else { throw NetlinkTestFailure("popen failed: \(command)") }
        let output = readAll(pipe)
        let status = pclose(pipe)
        guard status == 0 else {
            let errors = fopen(scratch + ".err", "r").map { file in
                defer { fclose(file) }
                return readAll(file)
            }
            throw NetlinkTestFailure("\(arguments.joined(separator: " ")) failed: " + (errors ?? ""))
        }
        return output
    }

    private static func quoted(_ argument: String) -> String {
        "'" + argument.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    private static func readAll(_ file: UnsafeMutablePointer<FILE>) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
