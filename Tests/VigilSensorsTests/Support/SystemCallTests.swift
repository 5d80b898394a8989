import Dispatch
import Glibc
import Synchronization
import Testing
import Vigil
import VigilTestSupport

@testable import VigilSensors

@Suite(.timeLimit(.minutes(5))) struct SystemCallTests {
    @Test func writesEveryByteThroughShortWritesAndInterrupts() throws {
        let input = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var taken: [UInt8] = []
        var calls = 0
        let written = try input.withUnsafeBytes { bytes throws(Errno) in
            try writingFully(bytes) { rest in
                calls += 1
                // Every third call is interrupted before anything is written; the others take at most 3 bytes.
                if calls % 3 == 0 {
                    errno = EINTR
                    return -1
                }
                let count = min(3, rest.count)
                taken += rest.prefix(count)
                return count
            }
        }
        #expect(written == input.count)
        #expect(taken == input)
    }

    @Test func stopsWhereANonBlockingDescriptorIsFull() throws {
        var calls = 0
        let written = try [UInt8](repeating: 1, count: 100).withUnsafeBytes { bytes throws(Errno) in
            try writingFully(bytes) { rest in
                calls += 1
                guard calls == 1 else {
                    errno = EAGAIN
                    return -1
                }
                return 40
            }
        }
        #expect(written == 40)
    }

    @Test func throwsTheErrorOfAFailedWriteAndNeverLoopsOnZero() {
        #expect(throws: Errno(rawValue: ENOSPC)) {
            try [UInt8](repeating: 1, count: 8).withUnsafeBytes { bytes throws(Errno) in
                try writingFully(bytes) { _ in
                    errno = ENOSPC
                    return -1
                }
            }
        }
        #expect(throws: Errno.ioError) {
            try [UInt8](repeating: 1, count: 8).withUnsafeBytes { bytes throws(Errno) in
                try writingFully(bytes) { _ in 0 }
            }
        }
    }

    /// A blocking pipe of one page, a slow reader, and signals without `SA_RESTART` aimed at the writer: the kernel
    /// returns short writes and `EINTR`, and every byte still arrives once, in order.
    @Test func aSignalledWriterIntoASlowPipeDeliversEverything() async throws {
        let outcome = await offThePool { () -> (sent: [UInt8], received: [UInt8], interruptions: Int)? in
            Self.installNoOpSignalHandler()
            guard let ends = closeOnExecPipe() else { return nil }
            let reader = FileDescriptor(ends.read)
            let writer = FileDescriptor(ends.write)
            _ = fcntl(writer.rawValue, Self.setPipeSize, 4096)
            let sent = (0..<256 * 1024).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
            let received = FutexMutex<[UInt8]>([])
            let done = Atomic<Bool>(false)
            let signallerStopped = DispatchSemaphore(value: 0)
            let writerThread = pthread_self()
            TestThread.detach {
                var chunk = [UInt8](repeating: 0, count: 512)
                while true {
                    let count = read(reader.rawValue, &chunk, chunk.count)
                    if count == 0 { break }
                    if count > 0 { received.withLock { $0 += chunk[0..<count] } }
                    usleep(20)
                }
                reader.close()
            }
            TestThread.detach {
                while !done.load(ordering: .acquiring) {
                    pthread_kill(writerThread, SIGUSR1)
                    usleep(100)
                }
                signallerStopped.signal()
            }
            var interruptions = 0
            let fd = writer.rawValue
            let written = try? sent.withUnsafeBytes { bytes throws(Errno) in
                try writingFully(bytes) { rest in
                    let result = write(fd, rest.baseAddress, rest.count)
                    if result < rest.count { interruptions += 1 }
                    return result
                }
            }
            done.store(true, ordering: .releasing)
            // The writer's thread outlives every signal aimed at it.
            signallerStopped.wait()
            writer.close()
            _ = eventually(timeout: 20) { received.withLock { $0.count } >= (written ?? 0) }
            return (sent, received.withLock { $0 }, interruptions)
        }
        let result = try #require(outcome)
        #expect(result.interruptions > 0, "no signal interrupted the write; the test proved nothing")
        #expect(result.received.count == result.sent.count)
        // A Bool, not the arrays: a failure would otherwise diff two 256 KiB arrays element by element.
        let deliveredInOrder = result.received == result.sent
        #expect(deliveredInOrder)
    }

    /// `F_SETPIPE_SZ`, which Glibc's module hides behind `_GNU_SOURCE`.
    private static let setPipeSize: Int32 = 1031

    /// Installs a SIGUSR1 handler that does nothing, without `SA_RESTART`, so a blocked `write(2)` returns early,
    /// and lets the calling thread receive it (threads may start with it blocked). It stays installed: a signal
    /// still in flight after the test would otherwise end the process.
    private static func installNoOpSignalHandler() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGUSR1, &action, nil)
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGUSR1)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }
}
