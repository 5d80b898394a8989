import Foundation
import Testing
import VigilSensors

/// ``BytePath``: byte-exact identity, `ls -b` escaping for display, base64, and JSON that is a string only when it is
/// the very name.
@Suite(.timeLimit(.minutes(10))) struct BytePathTests {
    /// Names and how GNU `ls -b` (coreutils 9.1, UTF-8 locale) prints them.
    static let lsEscapes: [([UInt8], String)] = [
        (Array("a b".utf8), #"a\ b"#),
        (Array(#"back\slash"#.utf8), #"back\\slash"#),
        (Array("caf".utf8) + [0xE9], #"caf\351"#),
        (Array("n\nl".utf8), #"n\nl"#),
        (Array("t\tab".utf8), #"t\tab"#),
        ([0xC3, 0xA9], "é"),
        ([0x7F], #"\177"#),
        (Array("u".utf8) + [0xC2, 0x85], #"u\302\205"#),
        (Array("ls".utf8) + [0xE2, 0x80, 0xA8], #"ls\342\200\250"#),
        (Array(#""q'$#~="#.utf8), #""q'$#~="#),
    ]

    @Test(arguments: lsEscapes)
    func escapesLikeLsB(bytes: [UInt8], escaped: String) {
        #expect(BytePath(bytes: bytes).description == escaped)
    }

    static let base64Encodings: [([UInt8], String)] = [
        ([], ""), (Array("a".utf8), "YQ=="), (Array("ab".utf8), "YWI="), (Array("abc".utf8), "YWJj"),
        (Array("caf".utf8) + [0xE9], "Y2Fm6Q=="), ([0xFF, 0xFE, 0xFD, 0x01], "//79AQ=="),
    ]

    @Test(arguments: base64Encodings)
    func encodesBase64(bytes: [UInt8], base64: String) {
        #expect(BytePath(bytes: bytes).base64 == base64)
    }

    /// UTF-8 (NFC and NFD alike) is its exact text; anything else is the array of its bytes, as journald writes it.
    @Test(arguments: [
        (Array("/tmp/a".utf8), #"["\/tmp\/a"]"#), ([0x65, 0xCC, 0x81], "[\"e\u{0301}\"]"),
        (Array("caf".utf8) + [0xE9], "[[99,97,102,233]]"), ([0xFF], "[[255]]"), ([], #"[""]"#),
    ])
    func encodesAsTextOnlyWhenItIsUTF8(bytes: [UInt8], json: String) throws {
        let encoded = try JSONEncoder().encode([BytePath(bytes: bytes)])
        #expect(String(decoding: encoded, as: UTF8.self) == json)
    }

    @Test func comparesBytesNotCanonicalEquivalence() {
        let nfc = BytePath(bytes: [0xC3, 0xA9])
        let nfd = BytePath(bytes: [0x65, 0xCC, 0x81])
        #expect("\u{E9}" == "e\u{301}")
        #expect(nfc != nfd)
        #expect(Set([nfc, nfd]).count == 2)
        #expect(nfc == BytePath("\u{E9}"))
        #expect(nfd == BytePath("e\u{301}"))
    }

    @Test func textIsExactOnlyForUTF8() {
        let latin1 = BytePath(bytes: Array("caf".utf8) + [0xE9])
        #expect(latin1.string == nil)
        #expect(!latin1.isValidUTF8)
        #expect(latin1.lossyString == "caf\u{FFFD}")
        #expect(BytePath("/tmp/café").string == "/tmp/café")
    }

    @Test func appendsAndComparesComponentWise() {
        let root: BytePath = "/r"
        #expect(root.appending("a") == "/r/a")
        #expect(BytePath("/").appending("a") == "/a")
        #expect(BytePath("/r/a/b").isEqualOrBelow("/r/a"))
        #expect(BytePath("/r/a").isEqualOrBelow("/r/a"))
        #expect(!BytePath("/r/ab").isEqualOrBelow("/r/a"))
        #expect(BytePath("/r/ab").isEqualOrBelow("/"))
    }
}
