import Foundation
import Glibc
import Testing
import VigilTestSupport

/// `--help`, the completion scripts and the man page list every option of every command's table.
@Suite(.timeLimit(.minutes(10))) struct VigilHelpTests {
    /// Each command and the options its help must show (the spec tables, read back through `help`'s own output
    /// would be circular: these are written out so a dropped option fails).
    static let commands: [String: [String]] = [
        "list": ["--json"],
        "watch": [
            "--json", "--timestamps", "-t", "--once", "--count", "--timeout", "--interval", "--every", "--wait",
            "--recursive", "-r", "--events", "-e", "--exclude", "--changes", "--subsystem",
        ],
        "get": ["--json", "--timeout", "--timestamps"], "help": ["--man"], "completions": [], "top": ["--reach"],
        "serve": ["--listen", "--textfile", "--interval"],
        "publish": [
            "--broker", "--topic", "--qos", "--username", "--password-file", "--homeassistant", "--keep-alive",
            "--interval",
        ],
    ]
    static let global = [
        "--sys-root", "--proc-root", "--etc-root", "--dev-root", "--netns", "--declination", "--mark", "--help",
        "-h",
    ]

    func run(_ arguments: [String]) async throws -> String {
        let vigil = try ChildProcess(vigil: arguments)
        #expect(await vigil.waitForExit())
        #expect(vigil.exitStatus == 0, "\(arguments): \(vigil.standardError)")
        return vigil.standardOutput
    }

    @Test func everyCommandsHelpListsEveryOptionExamplesAndExitStatuses() async throws {
        for (command, options) in Self.commands {
            let help = try await run([command, "--help"])
            for option in options + Self.global {
                #expect(
                    help.split(separator: "\n").contains { $0.hasPrefix("  ") && $0.contains(option) },
                    "\(command) \(option)")
            }
            #expect(help.contains("Examples:\n  vigil "), "\(command)")
            for status in ["0", "1", "2", "130", "143"] {
                #expect(help.contains("\n  \(status) "), "\(command): exit status \(status)")
            }
            #expect(try await run(["help", command]) == help)
        }
        let tool = try await run(["--help"])
        for command in Self.commands.keys { #expect(tool.contains("\n  \(command) "), "\(command)") }
        #expect(tool.contains("--version"))
    }

    @Test func completionsAndManPageHoldEveryOption() async throws {
        let bash = try await run(["completions", "bash"])
        let zsh = try await run(["completions", "zsh"])
        let man = try await run(["help", "--man"])
        for option in Self.commands.values.flatMap({ $0 }) + Self.global {
            #expect(bash.contains(option), "bash: \(option)")
            #expect(zsh.contains(option), "zsh: \(option)")
            #expect(man.contains(option.replacingOccurrences(of: "-", with: "\\-")), "man: \(option)")
        }
        for command in Self.commands.keys {
            #expect(bash.contains("\(command))"), "bash: \(command)")
            #expect(zsh.contains("_vigil_\(command)"), "zsh: \(command)")
            #expect(man.contains(".SS \(command)"), "man: \(command)")
        }
        #expect(man.hasPrefix(".TH VIGIL 1"))
        #expect(man.contains(".SH EXIT STATUS") && man.contains(".SH EXAMPLES"))
        #expect(try shellAccepts("/bin/bash", bash), "bash -n rejects the completion script")
    }

    /// Whether `shell -n` parses `script` without error.
    private func shellAccepts(_ shell: String, _ script: String) throws -> Bool {
        let path = "/tmp/vigil-completion-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        guard let pipe = popen("\(shell) -n \(path) 2>&1", "r") else { return false }
        return pclose(pipe) == 0
    }
}
