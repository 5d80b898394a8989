import Testing
import VigilTestSupport

/// `vigil top --reach TARGET` adds a row of the reach source's answers, in a real terminal (TopCommandTests' fixture).
@Suite(
    .timeLimit(.minutes(5)),
    .enabled(if: TmuxSession.executable != nil, "tmux is not installed (.ci/setup installs it)"))
struct ReachTopTests {
    @Test func topShowsAReachRow() async throws {
        let top = try await TopCommandTests.Fixture(
            arguments: ["--reach", "127.0.0.1:9", "--reach", "::1"], width: 200, height: 60)
        await top.expectScreen { screen in
            screen.split(separator: "\n").contains { line in
                line.contains("reach") && line.contains("127.0.0.1:9: reachable local dev lo (loopback)")
                    && line.contains("TCP refused") && line.contains("::1: reachable local dev lo")
            }
        }
        await top.quit()
    }
}
