import Foundation
import Glibc
import Testing
import VigilTestSupport

/// `vigil top` in a real terminal: tmux runs it, `capture-pane` reads the screen.
@Suite(
    .timeLimit(.minutes(10)),
    .enabled(if: TmuxSession.executable != nil, "tmux is not installed (.ci/setup installs it)"))
struct TopCommandTests {
    /// A fake machine whose values the tests change, a watched folder, and tmux running `vigil top` on them.
    final class Fixture {
        let machine: FakeMachine
        let folder = TemporaryDirectory("vigil-top")
        let tmux: TmuxSession
        let before: String
        let cursorBefore: String

        /// Starts `vigil top` on `machine`, with `arguments` after the roots, in a `width`×`height` terminal.
        init(
            machine: FakeMachine = .equipped(), arguments: [String] = [], width: Int = 80, height: Int = 24
        ) async throws {
            self.machine = machine
            tmux = try TmuxSession(
                vigil: [
                    "top", folder.path, "--sys-root", machine.sys.root, "--proc-root", machine.proc.root,
                    "--dev-root", machine.dev.root,
                ] + arguments,
                width: width, height: height)
            let tmux = tmux
            #expect(await eventually { tmux.screen().contains("the shell screen before vigil top") })
            before = tmux.screen()
            cursorBefore = tmux.cursor()
            tmux.start()
            #expect(await eventually(within: 30) { tmux.screen().contains("vigil top") && tmux.vigilPID != nil })
        }

        /// Waits (30 s at most, for slow sanitizer builds) until the screen satisfies `condition`.
        func screenEventually(_ condition: @escaping (String) -> Bool) async -> Bool {
            let tmux = tmux
            return await eventually(within: 30) { condition(tmux.screen()) }
        }

        /// Expects the screen to satisfy `condition` within 30 s; the failure shows the screen.
        func expectScreen(
            _ comment: String = "", sourceLocation: SourceLocation = #_sourceLocation,
            _ condition: @escaping (String) -> Bool
        ) async {
            let shown = await screenEventually(condition)
            #expect(shown, "\(comment) \(tmux.screen())", sourceLocation: sourceLocation)
        }

        /// Types `q` and expects `vigil top` to end with status 0.
        func quit(sourceLocation: SourceLocation = #_sourceLocation) async {
            tmux.send("q")
            #expect(await exitStatus() == 0, sourceLocation: sourceLocation)
        }

        /// Waits for `vigil top` to end; returns its exit status.
        func exitStatus() async -> Int32? {
            let tmux = tmux
            _ = await eventually(within: 30) { tmux.exitStatus != nil }
            return tmux.exitStatus
        }

        deinit {
            tmux.close()
            folder.remove()
        }
    }

    @Test func showsARowPerSourceWithSparklinesAndChangedValues() async throws {
        let top = try await Fixture()
        await top.expectScreen { screen in
            ["cpu ", "memory", "mem pressure", "battery BAT0", "temp acpitz", "k10temp temp1", "accel |a|"]
                .allSatisfy(screen.contains)
                && screen.contains(where: { "▁▂▃▄▅▆▇█".contains($0) })
        }
        #expect(top.tmux.screen().contains("50.0 % of 1000.0 KiB"), "\(top.tmux.screen())")
        // The highlight lasts 1.5 s after each change; on a loaded machine one capture can miss that window, so the
        // memory keeps changing (75 % and 70 % in turn, one change per poll) until a capture shows it highlighted.
        let meminfo = top.machine.proc.root + "/meminfo"
        let tmux = top.tmux
        var available = 250
        let highlighted = await eventually(within: 60) {
            let lines = tmux.styledScreen().split(separator: "\n")
            let changedLine = lines.first { $0.contains("% of 1000.0 KiB") && !$0.contains("50.0 % of 1000.0 KiB") }
            if changedLine?.contains("7m") == true { return true }
            if lines.contains(where: { $0.contains("\(100 - available / 10).0 % of 1000.0 KiB") }) || changedLine == nil
            {
                available = available == 250 ? 300 : 250
                replaceFile(meminfo, "MemTotal: 1000 kB\nMemFree: 100 kB\nMemAvailable: \(available) kB\n")
            }
            return false
        }
        #expect(highlighted, "the changed value is drawn in reverse video for a moment: \(tmux.styledScreen())")
        // The counters keep moving, half busy, half idle: a core's use is the change between two samples.
        var ticks = 100
        let stat = top.machine.proc.root + "/stat"
        await top.expectScreen { screen in
            ticks += 10
            replaceFile(stat, "cpu  \(ticks) 0 0 \(ticks + 100) 0\ncpu0 \(ticks) 0 0 \(ticks + 100) 0\n")
            return screen.split(separator: "\n").contains { $0.hasPrefix(" cpu0 ") && $0.contains("50.0 %") }
        }
        await top.quit()
    }

    /// On a screen too short for every row, the text rows give way: every sparkline stays (rows in catalog order
    /// lost memory pressure's, the last plotted row, behind the text rows of sources listed before it).
    @Test func aShortScreenKeepsThePlottedRows() async throws {
        let top = try await Fixture(width: 80, height: 18)
        await top.expectScreen { screen in
            ["cpu ", "memory", "mem pressure", "battery BAT0", "temp acpitz", "k10temp temp1", "accel |a|"]
                .allSatisfy(screen.contains) && screen.contains("more rows: enlarge the terminal")
        }
        await top.quit()
    }

    /// The throughput row: the rates of a namespace's interfaces (but loopback) while datagrams leave a veth, with a
    /// sparkline of their history, falling to zero when they stop.
    @Test func aThroughputRowPlotsTheNetworksRates() async throws {
        guard NetlinkTestNamespace.isRoot else {
            try skip("needs root to create network namespaces (ip netns add)", expectedUnderCI: false)
        }
        let veth = try VethTransfer()
        defer { veth.remove() }
        let top = try await Fixture(arguments: ["--netns", veth.near.name])
        func throughput(_ screen: String) -> Substring? {
            screen.split(separator: "\n").first { $0.hasPrefix(" throughput ") }
        }
        await top.expectScreen("the row appears, measuring or with a first rate:") {
            throughput($0)?.contains("measuring…") == true || throughput($0)?.contains("↓") == true
        }
        // Sent from a process of its own: sent from the wait's condition, the datagrams stopped whenever a saturated
        // test process looked seldom, and the rate seen at the deadline was zero.
        let sender = try veth.startSendingDatagrams(payload: 1200)
        await top.expectScreen("datagrams leaving v0 show as sent bytes, with a sparkline:") { screen in
            guard let row = throughput(screen) else { return false }
            return row.contains("↓0 B/s ↑") && !row.contains("↑0 B/s") && row.contains(where: "▂▃▄▅▆▇█".contains)
        }
        _ = await sender.stop()
        await top.expectScreen("still counters read as zero:") { throughput($0)?.contains("↓0 B/s ↑0 B/s") == true }
        await top.quit()
    }

    @Test func aFileTouchedInTheWatchedFolderShowsUp() async throws {
        let top = try await Fixture()
        #expect(await top.screenEventually { $0.contains("── files") })
        writeFile(top.folder.file("touched-by-the-test"), "")
        await top.expectScreen { $0.contains("created " + top.folder.file("touched-by-the-test")) }
        writeFile(top.folder.file("line\nbreak"), "")
        await top.expectScreen("a newline in a name is escaped, not drawn:") {
            $0.contains("created " + top.folder.file("line\\nbreak"))
        }
        writeFile(top.folder.file("red\u{1B}[31mname"), "")
        await top.expectScreen("an escape sequence in a name is shown, not obeyed:") {
            $0.contains("created " + top.folder.file("red\\033[31mname"))
        }
        // Two columns each: the line is cut by display width, not by characters or bytes.
        writeFile(top.folder.file(String(repeating: "語", count: 60)), "")
        await top.expectScreen { screen in
            screen.split(separator: "\n").contains { line in
                line.contains("語") && line.hasSuffix("…")
                    && line.unicodeScalars.reduce(0) { $0 + ($1 == "語" ? 2 : 1) } <= 80
                    && line.unicodeScalars.reduce(0) { $0 + ($1 == "語" ? 2 : 1) } >= 79
            }
        }
        await top.quit()
    }

    @Test func aResizeRedrawsToTheNewSize() async throws {
        let top = try await Fixture()
        #expect(await top.screenEventually { $0.contains("80×24") })
        top.tmux.resize(width: 100, height: 30)
        await top.expectScreen { screen in
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            return screen.contains("100×30") && lines.count == 30
                && lines.contains { $0.hasPrefix("── devices") && $0.count == 100 }
        }
        top.tmux.resize(width: 60, height: 20)
        await top.expectScreen { screen in
            screen.contains("60×20") && screen.split(separator: "\n").allSatisfy { $0.count <= 60 }
        }
        await top.quit()
    }

    /// How a test ends `vigil top`, and the status it must exit with.
    enum Ending: Sendable, CustomStringConvertible {
        case key(String, status: Int32)
        case signal(Int32, status: Int32)

        var status: Int32 {
            switch self {
            case .key(_, let status), .signal(_, let status): return status
            }
        }

        var description: String {
            switch self {
            case .key(let key, _): return "key \(key)"
            case .signal(let number, _): return "signal \(number)"
            }
        }
    }

    @Test(arguments: [Ending.key("q", status: 0), .key("C-c", status: 130), .signal(SIGTERM, status: 143)])
    func endingRestoresTheShellScreenExactly(_ ending: Ending) async throws {
        let top = try await Fixture()
        #expect(await top.screenEventually { $0.contains("memory") })
        #expect(top.tmux.screen() != top.before)
        switch ending {
        case .key(let key, _): top.tmux.send(key)
        case .signal(let number, _): kill(try #require(top.tmux.vigilPID), number)
        }
        #expect(await top.exitStatus() == ending.status)
        #expect(top.tmux.screen() == top.before)
        #expect(top.tmux.cursor() == top.cursorBefore)
    }

    @Test func aCrashSignalRestoresTheScreenAndStillKills() async throws {
        let top = try await Fixture()
        #expect(await top.screenEventually { $0.contains("memory") })
        let pid = try #require(top.tmux.vigilPID)
        kill(pid, SIGSEGV)
        #expect(await top.exitStatus() == 128 + SIGSEGV)
        #expect(top.tmux.screen().hasPrefix(top.before.split(separator: "\n").first.map(String.init) ?? "-"))
        #expect(!top.tmux.screen().contains("vigil top   "), "\(top.tmux.screen())")
    }

    /// CPU time (user + system) over two idle seconds, from `/proc/PID/stat`: a redraw a second and the polled
    /// sources should cost a few ticks at most; the bound is generous for sanitizer builds.
    @Test func idleCPUStaysNearZero() async throws {
        let top = try await Fixture()
        #expect(await top.screenEventually { $0.contains("memory") })
        let pid = try #require(top.tmux.vigilPID)
        let start = try #require(ProcessProbe.cpuTicks(of: pid))
        try await Task.sleep(for: .seconds(2))
        let end = try #require(ProcessProbe.cpuTicks(of: pid))
        let fraction = Double(end - start) / Double(sysconf(Int32(_SC_CLK_TCK))) / 2
        #expect(fraction < 0.2, "vigil top used \(fraction * 100) % of a CPU while idle")
        await top.quit()
    }
}

/// `vigil top` without a terminal.
@Suite(.timeLimit(.minutes(10))) struct TopWithoutTerminalTests {
    @Test func notATerminalIsAUsageErrorThatSaysSo() async throws {
        let vigil = try ChildProcess(vigil: ["top"])
        #expect(await vigil.waitForExit())
        #expect(vigil.exitStatus == 2)
        #expect(vigil.standardError.contains("standard output is not"), "\(vigil.standardError)")
        #expect(vigil.standardOutput.isEmpty)
    }

    @Test func helpDescribesTheKeysAndStatuses() async throws {
        let vigil = try ChildProcess(vigil: ["top", "--help"])
        #expect(await vigil.waitForExit())
        #expect(vigil.exitStatus == 0)
        #expect(vigil.standardOutput.contains("vigil top [PATH]"))
        #expect(vigil.standardOutput.contains("143"))
    }
}
