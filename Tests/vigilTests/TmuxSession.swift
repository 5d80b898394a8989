import Foundation
import Glibc
import Testing
import VigilTestSupport

/// A tmux server of its own (a unique socket) with one detached session: a real terminal whose screen a test reads
/// with `capture-pane`.
///
/// The session runs a shell script that prints a line, waits for ``start()``, runs `vigil top`, and writes its exit
/// status to a file without touching the screen, so the screen before and after `vigil top` can be compared.
final class TmuxSession {
    /// The tmux executable, or nil when tmux is not installed (`.ci/setup` installs it).
    static let executable: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    private let socket = "vigil-top-\(getpid())-\(UUID().uuidString.prefix(8))"
    private let directory = TemporaryDirectory("vigil-tmux")

    /// Opens a `width`×`height` session that will run `vigil` with `arguments` once started.
    init(vigil arguments: [String], width: Int = 80, height: Int = 24) throws {
        let vigil = try #require(ChildProcess.vigil, "build the vigil product first (swift build)")
        let words = ([vigil] + arguments).map(Self.quoted).joined(separator: " ")
        let go = Self.quoted(directory.file("go"))
        let status = Self.quoted(directory.file("status"))
        let script =
            "printf 'the shell screen before vigil top\\n'; while [ ! -e \(go) ]; do sleep 0.05; done; "
            + "\(words); echo $? > \(status).writing; mv \(status).writing \(status); exec sleep 600"
        try #require(tmux(["new-session", "-d", "-x", "\(width)", "-y", "\(height)", "/bin/sh", "-c", script]) != nil)
    }

    /// Lets the script run `vigil top`.
    func start() { writeFile(directory.file("go"), "") }

    /// The visible screen, one line a row, as `capture-pane -p` prints it (trailing spaces trimmed).
    func screen() -> String { tmux(["capture-pane", "-p"]) ?? "" }

    /// The visible screen with its colours and attributes as SGR escape sequences (`capture-pane -p -e`).
    func styledScreen() -> String { tmux(["capture-pane", "-p", "-e"]) ?? "" }

    /// The cursor's column and row.
    func cursor() -> String { tmux(["display-message", "-p", "#{cursor_x},#{cursor_y}"]) ?? "" }

    /// Types `keys` (tmux key names such as `q` or `C-c`).
    func send(_ keys: String) { _ = tmux(["send-keys", keys]) }

    /// Resizes the session's window.
    func resize(width: Int, height: Int) {
        _ = tmux(["resize-window", "-x", "\(width)", "-y", "\(height)"])
    }

    /// The exit status `vigil top` ended with, once it has.
    var exitStatus: Int32? {
        guard let text = readWholeFile(directory.file("status")) else { return nil }
        return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The process id of `vigil` while it runs: the shell's child whose name is `vigil`.
    var vigilPID: pid_t? {
        guard let shell = tmux(["display-message", "-p", "#{pane_pid}"]).flatMap({ Int32($0) }) else { return nil }
        let children = readWholeFile("/proc/\(shell)/task/\(shell)/children") ?? ""
        return children.split(separator: " ").compactMap { Int32($0) }.first { pid in
            readWholeFile("/proc/\(pid)/comm") == "vigil\n"
        }
    }

    /// Ends the session (and with it the server, which exits when it has none) and removes the session's files.
    ///
    /// `kill-session` rather than `kill-server`, which tmux 3.3 acknowledges without exiting here.
    func close() {
        _ = tmux(["kill-session"])
        directory.remove()
    }

    /// Runs tmux on this session's socket (UTF-8 forced, whatever the locale) and returns its standard output, or nil
    /// when it failed.
    private func tmux(_ arguments: [String]) -> String? {
        guard let executable = Self.executable else { return nil }
        let command = [executable, "-u", "-L", socket] + arguments
        // A file, not a pipe: the server that `new-session` starts keeps the client's standard output open, so a
        // pipe would never reach end of file.
        let outputPath = directory.file("output-\(UUID().uuidString)")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        let environment: [UnsafeMutablePointer<CChar>?] =
            (["PATH=/usr/bin:/bin", "TERM=xterm-256color", "LANG=C.UTF-8"] + Self.sanitizerOptions).map {
                (text: String) in strdup(text)
            } + [nil]
        defer { for pointer in argv + environment { free(pointer) } }
        var child: pid_t = 0
        guard posix_spawn(&child, executable, &actions, nil, argv, environment) == 0 else { return nil }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        defer { unlink(outputPath) }
        guard status == 0, let text = readWholeFile(outputPath) else { return nil }
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }

    /// The sanitizer settings of the test run (CI's LeakSanitizer suppressions among them), passed on through the
    /// otherwise clean environment, so `vigil top` under a sanitizer is judged by the same rules as the tests.
    private static var sanitizerOptions: [String] {
        ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS"].compactMap { name in
            ProcessInfo.processInfo.environment[name].map { "\(name)=\($0)" }
        }
    }

    private static func quoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
