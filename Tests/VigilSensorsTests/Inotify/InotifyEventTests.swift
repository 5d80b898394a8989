import Testing
import VigilTestSupport

@testable import VigilSensors

@Suite(.timeLimit(.minutes(10))) struct InotifyEventTests {
    /// Encodes one record as the kernel lays it out, the name padded with NULs to `nameLength` bytes.
    static func record(wd: Int32, mask: UInt32, cookie: UInt32 = 0, name: String = "", nameLength: Int? = nil)
        -> [UInt8]
    {
        var bytes: [UInt8] = []
        withUnsafeBytes(of: wd.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: mask.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: cookie.littleEndian) { bytes += $0 }
        let length = nameLength ?? (name.isEmpty ? 0 : (name.utf8.count / 16 + 1) * 16)
        withUnsafeBytes(of: UInt32(length).littleEndian) { bytes += $0 }
        var padded = Array(name.utf8)
        padded += [UInt8](repeating: 0, count: max(0, length - padded.count))
        return bytes + padded.prefix(length)
    }

    @Test func parsesConsecutiveRecords() throws {
        let bytes =
            Self.record(wd: 1, mask: 0x40, cookie: 7, name: "old.txt")
            + Self.record(wd: 1, mask: 0x80, cookie: 7, name: "new.txt") + Self.record(wd: -1, mask: 0x4000)
        let events = try InotifyEvent.parse(bytes)
        #expect(
            events == [
                InotifyEvent(watchDescriptor: 1, mask: 0x40, cookie: 7, name: "old.txt"),
                InotifyEvent(watchDescriptor: 1, mask: 0x80, cookie: 7, name: "new.txt"),
                InotifyEvent(watchDescriptor: -1, mask: 0x4000, cookie: 0, name: ""),
            ])
    }

    @Test func emptyInputHasNoRecords() throws {
        #expect(try InotifyEvent.parse([]).isEmpty)
    }

    @Test(arguments: [1, 15, 17, 20, 31])
    func truncatedInputIsMalformed(length: Int) {
        let bytes = Array(Self.record(wd: 3, mask: 0x100, name: "abc").prefix(length))
        #expect(throws: SensorError.self) { try InotifyEvent.parse(bytes) }
    }

    @Test func impossibleNameLengthIsMalformed() {
        let bytes = Self.record(wd: 3, mask: 0x100, name: "abc", nameLength: 16) + [0, 0]
        var huge = bytes
        huge[12] = 0xFF
        huge[13] = 0xFF
        huge[14] = 0xFF
        huge[15] = 0xFF
        #expect(throws: SensorError.self) { try InotifyEvent.parse(huge) }
    }

    /// The `inotify` fuzz corpus, each input with the records it holds; `Fuzz/run.sh inotify` is where random bytes
    /// go.
    static let corpus: [(name: String, events: [InotifyEvent])] = [
        ("create", [InotifyEvent(watchDescriptor: 1, mask: 0x100, cookie: 0, name: "file.txt")]),
        (
            "overflow-and-ignored",
            [
                InotifyEvent(watchDescriptor: -1, mask: 0x4000, cookie: 0, name: ""),
                InotifyEvent(watchDescriptor: 1, mask: 0x8000, cookie: 0, name: ""),
            ]
        ),
        (
            "rename-pair",
            [
                InotifyEvent(watchDescriptor: 1, mask: 0x40, cookie: 0x4D, name: "old"),
                InotifyEvent(watchDescriptor: 1, mask: 0x80, cookie: 0x4D, name: "new"),
                InotifyEvent(watchDescriptor: 1, mask: 0x08, cookie: 0, name: "new"),
            ]
        ),
    ]

    @Test func everyCorpusInputHasAnExpectation() {
        #expect(FuzzCorpus.names("inotify") == Self.corpus.map(\.name).sorted())
    }

    @Test(arguments: corpus.map(\.name))
    func corpusInputParsesToItsRecordsAndEveryCutIsMalformed(name: String) throws {
        let bytes = try #require(FuzzCorpus.input("inotify", name))
        let events = try #require(Self.corpus.first { $0.name == name }).events
        #expect(try InotifyEvent.parse(bytes) == events)
        // A read returns whole records: a cut at a record's end holds the records before it; any other cut is a
        // malformed buffer, a typed error.
        var boundaries = [0]
        for event in events { boundaries.append(boundaries.last! + 16 + (event.name.isEmpty ? 0 : 16)) }
        for cut in 0..<bytes.count {
            if let whole = boundaries.firstIndex(of: cut) {
                #expect(try InotifyEvent.parse(Array(bytes.prefix(cut))) == Array(events.prefix(whole)))
            } else {
                #expect(throws: SensorError.self, "cut at \(cut)") { try InotifyEvent.parse(Array(bytes.prefix(cut))) }
            }
        }
    }

    @Test func watchTableFollowsRenamesRemovalAndReuse() {
        var table = InotifyWatchTable()
        table.insert(1, path: "/r")
        table.insert(2, path: "/r/a")
        table.insert(3, path: "/r/a/b")
        table.insert(4, path: "/r/ab")
        table.rename("/r/a", to: "/r/c")
        #expect(table[2] == "/r/c")
        #expect(table[3] == "/r/c/b")
        #expect(table[4] == "/r/ab")
        #expect(Set(table.watchDescriptors(under: "/r/c")) == [2, 3])
        #expect(table.remove(3) == "/r/c/b")
        #expect(table.watchDescriptor(for: "/r/c/b") == nil)
        table.insert(3, path: "/r/new")
        table.insert(5, path: "/r/new")
        #expect(table[3] == nil)
        #expect(table[5] == "/r/new")
        #expect(table.count == 4)
    }
}
