import Foundation
import Glibc
import Testing
import VigilSensors
import VigilTestSupport

extension InotifyKernelTests {
    /// `vigil watch files` with names that are not UTF-8 or hold a newline: one line per event, nothing lost.
    @Suite(.timeLimit(.minutes(10))) struct VigilFileNameCommandTests {
        @Test func readableLinesEscapeNamesLikeLsB() async throws {
            let directory = TemporaryDirectory()
            let latin1 = BytePathFiles.path(directory.path, BytePathFiles.latin1Cafe)
            defer {
                BytePathFiles.remove(latin1)
                directory.remove()
            }
            let vigil = try ChildProcess(vigil: ["watch", "files", directory.path])
            #expect(await eventually { vigil.standardError.contains("watching") }, "\(vigil.standardError)")
            BytePathFiles.write(latin1)
            writeFile(directory.file("two\nlines"))
            let expected = [
                "files: created \(directory.path)/caf\\351", "files: created \(directory.path)/two\\nlines",
            ]
            #expect(
                await eventually {
                    let lines = vigil.standardOutput.split(separator: "\n").map(String.init)
                    return expected.allSatisfy { lines.contains($0) }
                }, "\(vigil.standardOutput)")
            vigil.signal(SIGINT)
            #expect(await vigil.waitForExit())
            #expect(vigil.exitStatus == 130)
        }

        @Test func jsonCarriesTheExactBytesOfANameThatIsNotUTF8() async throws {
            let directory = TemporaryDirectory()
            let latin1 = BytePathFiles.path(directory.path, BytePathFiles.latin1Cafe)
            defer {
                BytePathFiles.remove(latin1)
                directory.remove()
            }
            let vigil = try ChildProcess(vigil: ["watch", "files", directory.path, "--json"])
            #expect(await eventually { vigil.standardError.contains("watching") }, "\(vigil.standardError)")
            BytePathFiles.write(latin1)
            writeFile(latin1.lossyString)
            writeFile(directory.file("two\nlines"))
            #expect(await eventually { vigil.standardOutput.contains("two\\nlines") }, "\(vigil.standardOutput)")
            vigil.signal(SIGINT)
            #expect(await vigil.waitForExit())
            let readings = try vigil.standardOutput.split(separator: "\n").map { line in
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                return object
            }
            let created = readings.filter { $0["event"] as? String == "created" }
            // The name that is not UTF-8 is its bytes, never a string: not even the look-alike with U+FFFD, which a
            // real file may bear (created beside it here).
            let latin1Reading = try #require(created.first { $0["path"] is [Any] }, "\(readings)")
            #expect((latin1Reading["path"] as? [Int])?.map { UInt8($0) } == latin1.bytes)
            #expect(!readings.contains { $0["pathBytes"] != nil })
            let strings = created.compactMap { $0["path"] as? String }
            #expect(strings.contains(directory.file("two\nlines")), "\(readings)")
            #expect(strings.contains(latin1.lossyString), "the real file named with U+FFFD: \(readings)")
            #expect(strings.count == 2, "\(readings)")
        }

        @Test func watchesAPathThatIsNotUTF8GivenOnTheCommandLine() async throws {
            let directory = TemporaryDirectory()
            let latin1 = BytePathFiles.path(directory.path, BytePathFiles.latin1Cafe)
            #expect(BytePathFiles.write(latin1))
            defer {
                BytePathFiles.remove(latin1)
                directory.remove()
            }
            // An argument a Swift `String` cannot spell: the shell's printf turns the octal escape into the byte E9.
            let vigil = try ChildProcess(
                vigil: ["\(directory.path)/caf\\0351"],
                wrapper: ["/bin/sh", "-c", #"exec "$0" watch files "$(printf '%b' "$1")" --json"#])
            #expect(await eventually { vigil.standardError.contains("watching") }, "\(vigil.standardError)")
            BytePathFiles.write(latin1, "changed")
            #expect(await eventually { vigil.standardOutput.contains(#""event":"closedAfterWrite""#) })
            let bytes = latin1.bytes.map(String.init).joined(separator: ",")
            #expect(vigil.standardOutput.contains(#""path":[\#(bytes)]"#), "\(vigil.standardOutput)")
            vigil.signal(SIGINT)
            #expect(await vigil.waitForExit())
            #expect(vigil.exitStatus == 130)
        }
    }
}
