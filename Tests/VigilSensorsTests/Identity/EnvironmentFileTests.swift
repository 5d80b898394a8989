import Testing
import VigilTestSupport

@testable import VigilSensors

/// The os-release(5) rules, each on a line written for it (the real files in `Tests/Fixtures/os-release` have no
/// single quotes, escapes, comments after values or CRLF).
@Suite(.timeLimit(.minutes(5))) struct EnvironmentFileTests {
    static let values: [(line: String, value: String)] = [
        ("A=plain", "plain"),
        (#"A="double quoted""#, "double quoted"),
        ("A='single quoted'", "single quoted"),
        (#"A="a \"quote\" and \\ and \$HOME and \`x\`""#, #"a "quote" and \ and $HOME and `x`"#),
        (#"A="kept \n backslash""#, #"kept \n backslash"#),
        (#"A='no \" escapes'"#, #"no \" escapes"#),
        (#"A=unquoted\ escaped"#, "unquoted escaped"),
        ("A=$HOME", "$HOME"),
        ("A=${ID}-$(id)", "${ID}-$(id)"),
        ("A=\"\"", ""),
        ("A=", ""),
        ("A=trailing blanks   \t", "trailing blanks"),
        ("  A = spaced", "spaced"),
        (#"A="joined"'parts'"#, "joinedparts"),
        ("A=\"  inner blanks kept  \"", "  inner blanks kept  "),
        ("A=value # not a comment", "value # not a comment"),
        ("A=\"naïve – ünïcode\"", "naïve – ünïcode"),
    ]

    @Test(arguments: values) func parsesAValue(line: String, value: String) {
        let file = EnvironmentFile(parsing: line + "\n")
        #expect(file.values == ["A": value])
        #expect(file.malformedLines.isEmpty)
    }

    @Test func skipsCommentsAndBlankLinesAndDropsCarriageReturns() {
        let text = "# VERSION=\"20240823\"\r\n\r\n   \t\n  #CPE_NAME=old\r\nCPE_NAME=new\r\nID=\"x\"\r\nEND=1"
        let file = EnvironmentFile(parsing: text)
        #expect(file.values == ["CPE_NAME": "new", "ID": "x", "END": "1"])
        #expect(file.malformedLines.isEmpty)
    }

    @Test func aLaterAssignmentWins() {
        #expect(EnvironmentFile(parsing: "ID=a\nID=b\n").values == ["ID": "b"])
    }

    /// A malformed line is skipped and reported by number; the lines around it still count.
    @Test(arguments: [
        #"PRETTY_NAME="unterminated"#, "NAME='unterminated", "NO_EQUALS_SIGN", "1BAD=key", "BAD-KEY=x", "=x",
        "TRAILING=backslash\\", #"IN_QUOTES="ends in escape\"#, "K Y=x",
    ])
    func skipsAMalformedLine(line: String) {
        let file = EnvironmentFile(parsing: "ID=debian\n\(line)\nVERSION_ID=12\n")
        #expect(file.values == ["ID": "debian", "VERSION_ID": "12"])
        #expect(file.malformedLines == [2])
    }

    /// The fuzzer's seeds (`Fuzz/Corpus/os-release`), each with what it must give.
    @Test func fuzzCorpusGivesItsValues() throws {
        #expect(FuzzCorpus.names("os-release") == ["crlf", "malformed", "quoted"])
        let parse = { (name: String) throws -> EnvironmentFile in
            EnvironmentFile(
                parsing: String(decoding: try #require(FuzzCorpus.input("os-release", name)), as: UTF8.self))
        }
        #expect(try parse("crlf").values == ["PRETTY_NAME": "CRLF Linux", "ID": "crlf"])
        let malformed = try parse("malformed")
        #expect(malformed.values == ["ID": "ok", "VERSION_ID": "2"] && malformed.malformedLines == [2, 4, 5])
        let quoted = try parse("quoted")
        #expect(
            quoted.values == [
                "NAME": #"Fuzz "Linux""#, "ID": "fuzz", "ID_LIKE": "debian ubuntu",
                "HOME_URL": "https://example.org/$HOME", "VERSION_ID": "1.0",
            ])
    }

    @Test func survivesHostileText() {
        let long = String(repeating: "x", count: 100_000)
        #expect(EnvironmentFile(parsing: "A=\(long)").values["A"]?.count == 100_000)
        #expect(EnvironmentFile(parsing: "A=" + String(repeating: "\"", count: 10_001)).malformedLines == [1])
        #expect(EnvironmentFile(parsing: "A=\0b\0").values == ["A": "\0b\0"])
        #expect(EnvironmentFile(parsing: "").values.isEmpty)
        let invalid = String(decoding: [0x41, 0x3D, 0xFF, 0xFE, 0x0A], as: UTF8.self)
        #expect(EnvironmentFile(parsing: invalid).values == ["A": "\u{FFFD}\u{FFFD}"])
    }
}
