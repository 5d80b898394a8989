import Foundation
import Testing
import VigilTestSupport

extension InotifyKernelTests {
    /// The built `vigil` binary, end to end.
    @Suite(.timeLimit(.minutes(10))) struct VigilCommandTests {
        @Test func watchFilesJSONPrintsTheTouchedFileAndStopsOnSIGINT() async throws {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            let vigil = try ChildProcess(vigil: ["watch", "files", directory.path, "--json"])
            #expect(await eventually { vigil.standardError.contains("watching") }, "\(vigil.standardError)")
            let file = directory.file("touched")
            writeFile(file, "")
            #expect(await eventually { vigil.standardOutput.contains("\n") })
            let line = try #require(vigil.standardOutput.split(separator: "\n").first)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["source"] as? String == "files")
            #expect(object["status"] as? String == "ok")
            #expect(object["event"] as? String == "created")
            #expect(object["path"] as? String == file)
            vigil.signal(SIGINT)
            #expect(await vigil.waitForExit())
            #expect(vigil.exitStatus == 130)
        }

        @Test func sigtermStopsCleanly() async throws {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            let vigil = try ChildProcess(vigil: ["watch", "files", directory.path])
            #expect(await eventually { vigil.standardError.contains("watching") })
            writeFile(directory.file("x"))
            #expect(await eventually { vigil.standardOutput.contains("files: created \(directory.file("x"))") })
            vigil.signal(SIGTERM)
            #expect(await vigil.waitForExit())
            #expect(vigil.exitStatus == 143)
        }

        @Test(arguments: [
            (["watch", "nosuchsource"], "unknown source"),
            (["watch", "files", "/nonexistent/vigil"], "no such file or directory"),
            (["watch", "files"], "needs PATH"),
            (["frobnicate"], "unknown command"),
            (["list", "--bogus"], "unknown option"),
        ])
        func failuresPrintOneLineAndExitNonZero(arguments: [String], message: String) async throws {
            let vigil = try ChildProcess(vigil: arguments)
            #expect(await vigil.waitForExit())
            #expect(vigil.exitStatus != 0)
            let lines = vigil.standardError.split(separator: "\n")
            #expect(lines.count == 1, "\(vigil.standardError)")
            #expect(vigil.standardError.hasPrefix("vigil: error:"))
            #expect(vigil.standardError.contains(message), "\(vigil.standardError)")
        }

        /// Root may watch anything, so the denial is real only for another user: run the binary as `nobody`.
        @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
        func permissionDeniedForAnUnprivilegedUser() async throws {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            chmod(directory.path, 0o755)
            let secret = directory.file("secret")
            mkdir(secret, 0o000)
            let vigil = try ChildProcess(
                vigil: ["watch", "files", secret],
                wrapper: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"])
            #expect(await vigil.waitForExit())
            #expect(vigil.exitStatus == 1)
            #expect(vigil.standardError == "vigil: error: files: \(secret): permission denied\n")
        }

        @Test func helpForEveryCommandAndListShowsFiles() async throws {
            for arguments in [["--help"], ["list", "--help"], ["watch", "--help"], ["help", "watch"]] {
                let vigil = try ChildProcess(vigil: arguments)
                #expect(await vigil.waitForExit())
                #expect(vigil.exitStatus == 0)
                #expect(await eventually { vigil.standardOutput.contains("Usage") }, "\(arguments)")
            }
            let list = try ChildProcess(vigil: ["list"])
            #expect(await list.waitForExit())
            #expect(await eventually { list.standardOutput.contains("files PATH") })
        }

        @Test func everySourceIdIsListedOnce() async throws {
            let list = try ChildProcess(vigil: ["list"])
            #expect(await list.waitForExit())
            #expect(await eventually { list.standardOutput.contains("clock ") })
            let ids = list.standardOutput.split(separator: "\n").compactMap { $0.split(separator: " ").first }
            #expect(ids.count >= 20)
            #expect(Set(ids).count == ids.count, "an id names two sources: \(ids)")
        }
    }
}
