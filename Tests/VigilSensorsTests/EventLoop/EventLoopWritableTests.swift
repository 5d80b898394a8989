import Glibc
import Synchronization
import Testing
import VigilSensors
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct EventLoopWritableTests {
    @Test func writableIsReportedOnlyWhileItIsWatched() async throws {
        var pair: [Int32] = [-1, -1]
        let made = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &pair) == 0
        try #require(made)
        defer { for fd in pair { close(fd) } }
        let writableCalls = Atomic<Int>(0)
        let registration = try EventLoop.shared.register(fileDescriptor: pair[0], interest: .readable) { ready in
            if ready.contains(.writable) { writableCalls.add(1, ordering: .relaxed) }
        }
        defer { registration.cancel() }
        // An empty socket is writable at once, but only reported once asked for.
        try await EventLoop.shared.barrier()
        #expect(writableCalls.load(ordering: .relaxed) == 0)
        try registration.setInterest([.readable, .writable])
        #expect(await eventually { writableCalls.load(ordering: .relaxed) > 0 })
        try registration.setInterest(.readable)
        // A call that had started before the change may still finish; none starts after it.
        try await EventLoop.shared.barrier()
        let settled = writableCalls.load(ordering: .relaxed)
        try await EventLoop.shared.barrier()
        #expect(writableCalls.load(ordering: .relaxed) == settled)
        registration.cancel()
        #expect(throws: Never.self) { try registration.setInterest([.readable, .writable]) }
    }
}
