import Glibc
import Synchronization
import Testing
import Vigil
import VigilTestSupport

@testable import VigilSensors

extension InotifyKernelTests {
    /// Renames whose `IN_MOVED_FROM` and `IN_MOVED_TO` fall in different reads still arrive as one move.
    @Suite(.timeLimit(.minutes(10))) struct FileSystemMonitorRenameTests {
        /// A session on a real inotify instance, fed records by hand through its seam.
        final class FedSession: Sendable {
            let directory = TemporaryDirectory()
            let session: InotifySession
            private let published = Published()
            /// The root's watch: the first watch of a new inotify instance.
            let root: Int32 = 1

            init(moveDeadline: Duration = .seconds(30)) throws {
                let events = published
                session = try InotifySession(
                    target: .directory(path: BytePath(directory.path), recursive: false), eventLoop: .shared,
                    tuning: InotifyTuning(readBufferSize: 0, readsPerWake: 1, moveDeadline: moveDeadline)
                ) { event in events.list.withLock { $0.append(event) } }
            }

            private final class Published: Sendable {
                let list = FutexMutex<[SensorEvent<FileSystemEvent>]>([])
            }

            var events: [FileSystemEvent] { published.list.withLock { $0 }.untimed }

            func record(_ mask: UInt32, _ name: String, cookie: UInt32 = 0) -> InotifyEvent {
                InotifyEvent(watchDescriptor: root, mask: mask, cookie: cookie, name: BytePath(name))
            }

            func path(_ name: String) -> BytePath { BytePath(directory.file(name)) }

            func close() {
                session.close()
                directory.remove()
            }
        }

        @Test func halvesInTwoReadsAreOneMove() throws {
            let fed = try FedSession()
            defer { fed.close() }
            fed.session.process([fed.record(Inotify.movedFrom, "old", cookie: 7)])
            #expect(fed.events.isEmpty, "the first half waits for the second: \(fed.events)")
            fed.session.process([fed.record(Inotify.movedTo, "new", cookie: 7), fed.record(Inotify.create, "after")])
            #expect(
                fed.events
                    == [
                        FileSystemEvent(kind: .moved, path: fed.path("new"), oldPath: fed.path("old")),
                        FileSystemEvent(kind: .created, path: fed.path("after")),
                    ].untimed)
        }

        @Test func anUnpairedHalfHoldsLaterEventsInOrderUntilItExpires() throws {
            let fed = try FedSession()
            defer { fed.close() }
            fed.session.process([
                fed.record(Inotify.create, "before"), fed.record(Inotify.movedFrom, "gone", cookie: 9),
            ])
            fed.session.process([fed.record(Inotify.create, "later")])
            #expect(fed.events == [FileSystemEvent(kind: .created, path: fed.path("before"))].untimed)
            fed.session.expirePendingMoves()
            #expect(
                fed.events
                    == [
                        FileSystemEvent(kind: .created, path: fed.path("before")),
                        FileSystemEvent(kind: .deleted, path: fed.path("gone")),
                        FileSystemEvent(kind: .created, path: fed.path("later")),
                    ].untimed)
        }

        @Test func theDeadlineDecidesAMoveOutOfTheTree() async throws {
            let fed = try FedSession(moveDeadline: .milliseconds(20))
            defer { fed.close() }
            fed.session.process([fed.record(Inotify.movedFrom, "left", cookie: 11)])
            #expect(
                await eventually { fed.events == [FileSystemEvent(kind: .deleted, path: fed.path("left"))].untimed })
        }

        @Test func manyRenamesWithSmallReadsAllArriveAsMoves() async throws {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            let count = 2000
            for index in 0..<count { writeFile(directory.file("f\(index)")) }
            // The smallest buffer, one read per wake-up, and names of two record sizes: reads end between halves.
            let monitor = FileSystemMonitor(
                path: BytePath(directory.path), recursive: false, eventLoop: .shared,
                tuning: InotifyTuning(readBufferSize: 0, readsPerWake: 1, moveDeadline: .milliseconds(10)))
            let recorder = EventRecorder(monitor)
            try monitor.startMonitoring()
            defer { monitor.stopMonitoring() }
            for index in 0..<count {
                rename(directory.file("f\(index)"), directory.file("renamed-with-a-longer-name-\(index)"))
            }
            #expect(await eventually { recorder.all.filter { $0.kind == .moved }.count == count })
            let split = recorder.all.filter { $0.kind != .moved }
            #expect(split.count == 0, "renames became other events, first \(split.prefix(4))")
        }
    }
}
