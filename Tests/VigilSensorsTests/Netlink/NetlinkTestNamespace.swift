import Foundation
import Glibc

/// A network namespace a test creates with `ip netns add vigil-test-<random>` and removes with ``remove()``.
///
/// Every command runs inside the namespace (`ip -n NAME …`, `ip netns exec NAME …`), so tests never touch the root
/// namespace's interfaces, and the random name keeps tests that run in parallel apart.
final class NetlinkTestNamespace {
    static var isRoot: Bool { geteuid() == 0 }

    let name: String
    var path: String { "/var/run/netns/" + name }

    init() throws {
        name = "vigil-test-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        try Self.run(["ip", "netns", "add", name])
    }

    /// Deletes the namespace, and with it every interface created inside it.
    func remove() {
        _ = try? Self.run(["ip", "netns", "del", name])
    }

    /// Runs `ip -n NAME args…` and returns its standard output.
    @discardableResult
    func ip(_ arguments: String...) throws -> String {
        try Self.run(["ip", "-n", name] + arguments)
    }

    /// Runs `ip -n NAME -batch -` with `lines` on standard input.
    func ipBatch(_ lines: [String]) throws {
        try Self.run(["ip", "-n", name, "-batch", "-"], input: lines.joined(separator: "\n") + "\n")
    }

    /// Runs a shell command inside the namespace (`ip netns exec NAME sh -c …`).
    func shell(_ command: String) throws {
        try Self.run(["ip", "netns", "exec", name, "sh", "-c", command])
    }

    /// Runs `ip -n NAME -j args…` and decodes its JSON array.
    func json(_ arguments: String...) throws -> [[String: Any]] {
        let output = try Self.run(["ip", "-n", name, "-j"] + arguments)
        guard let array = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]] else {
            throw NetlinkTestFailure("ip -j \(arguments) printed no JSON array")
        }
        return array
    }

    @discardableResult
    private static func run(_ arguments: [String], input: String? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let inputPipe = Pipe()
        if input != nil { process.standardInput = inputPipe }
        try process.run()
        if let input {
            inputPipe.fileHandleForWriting.write(Data(input.utf8))
            try inputPipe.fileHandleForWriting.close()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NetlinkTestFailure(
                "\(arguments.joined(separator: " ")) failed: " + String(decoding: message, as: UTF8.self))
        }
        return String(decoding: data, as: UTF8.self)
    }
}
