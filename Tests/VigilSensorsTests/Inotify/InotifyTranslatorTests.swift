import Testing

@testable import VigilSensors

/// ``InotifyTranslator`` on its own: records in, events and system calls out, no kernel and no threads.
@Suite(.timeLimit(.minutes(10))) struct InotifyTranslatorTests {
    static func record(_ wd: Int32, _ mask: UInt32, _ name: BytePath = "", cookie: UInt32 = 0) -> InotifyEvent {
        InotifyEvent(watchDescriptor: wd, mask: mask, cookie: cookie, name: name)
    }

    @Test func aWatchedFileRenamedAwayAcrossTwoReadsNamesItsNewPath() {
        var translator = InotifyTranslator(target: .file(path: "/d/f", parent: "/d", name: "f"))
        translator.watched(1, path: "/d", isRoot: true)
        let first = ReadingTime(monotonic: ReadingTime.fixed.monotonic, wall: .seconds(1))
        let second = ReadingTime(monotonic: ReadingTime.fixed.monotonic + .milliseconds(1), wall: .seconds(2))
        translator.beginRead(at: first)
        #expect(translator.translate(Self.record(1, Inotify.movedFrom, "f", cookie: 5)).isEmpty)
        #expect(translator.takeReleasable().isEmpty)
        translator.beginRead(at: second)
        _ = translator.translate(Self.record(1, Inotify.movedTo, "g", cookie: 5))
        // A move is stamped with the read that completed it.
        #expect(
            translator.takeReleasable()
                == [
                    SensorEvent(FileSystemEvent(kind: .watchedObjectMoved, path: "/d/g", oldPath: "/d/f", time: second))
                ])
    }

    @Test func aDirectoryThatLeftTheTreeIsUnwatchedWhenItsMoveExpires() {
        var translator = InotifyTranslator(target: .directory(path: "/r", recursive: true))
        translator.watched(1, path: "/r", isRoot: true)
        translator.watched(2, path: "/r/sub", isRoot: false)
        translator.watched(3, path: "/r/sub/deep", isRoot: false)
        translator.beginRead()
        _ = translator.translate(Self.record(1, Inotify.movedFrom | Inotify.isDirectory, "sub", cookie: 8))
        #expect(translator.hasPendingMoves)
        // Only moves read up to the deadline's read expire.
        #expect(translator.expireMoves(readThrough: translator.reads - 1).isEmpty)
        let actions = translator.expireMoves(readThrough: translator.reads)
        #expect(actions.count == 1)
        if case .unwatch(let removed) = actions.first { #expect(Set(removed) == [2, 3]) }
        #expect(translator.table[2] == nil && translator.table[3] == nil)
        #expect(
            translator.takeReleasable().untimed
                == [FileSystemEvent(kind: .deleted, path: "/r/sub", isDirectory: true)].untimed)
    }

    @Test func anOverflowDecidesPendingMovesAndAsksForARescan() {
        var translator = InotifyTranslator(target: .directory(path: "/r", recursive: true))
        translator.watched(1, path: "/r", isRoot: true)
        translator.beginRead()
        _ = translator.translate(Self.record(1, Inotify.movedFrom, "a", cookie: 3))
        let actions = translator.translate(Self.record(-1, Inotify.queueOverflow))
        #expect(actions == [.watch(directory: "/r", isRoot: true, report: false)])
        let events = translator.takeReleasable()
        #expect(events.map { $0.payload?.kind } == [.deleted, nil])
        #expect(events.last?.kind == .overflow)
        #expect(!translator.hasPendingMoves)
    }

    @Test func aNewDirectoryInARecursiveTreeAsksForItsWatch() {
        var translator = InotifyTranslator(target: .directory(path: "/r", recursive: true))
        translator.watched(1, path: "/r", isRoot: true)
        translator.beginRead()
        let actions = translator.translate(Self.record(1, Inotify.create | Inotify.isDirectory, "new"))
        #expect(actions == [.watch(directory: "/r/new", isRoot: false, report: true)])
        #expect(
            translator.takeReleasable().untimed
                == [FileSystemEvent(kind: .created, path: "/r/new", isDirectory: true)].untimed)
    }
}
