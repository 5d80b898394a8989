import CLinuxSupport
import Glibc
import Testing
import VigilTestSupport

/// The test support's check that a descriptor was closed: a timer closed and its number reused at once by another
/// timer (as a parallel suite's source does) passed for the first one still open when only the number and `fdinfo`
/// were compared; CI's ThreadSanitizer run failed `ClockChangeMonitorTests` that way.
@Suite(.timeLimit(.minutes(5))) struct PinnedDescriptorTests {
    static func realtimeTimer() throws -> Int32 {
        let fd = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        try #require(fd >= 0, "timerfd_create: errno \(errno)")
        return fd
    }

    @Test func aTimerClosedAndItsNumberReusedByAnotherTimerIsClosed() throws {
        let number = try Self.realtimeTimer()
        defer { close(number) }
        let seen = try #require(OpenDescriptor.current(number))
        let pin = try #require(PinnedDescriptor(seen))
        #expect(pin.isStillOpen)
        // dup2 closes the first timer and reuses its number for a second in one step, as a parallel suite can; the
        // copy is made close-on-exec again, as every Vigil descriptor is.
        let second = try Self.realtimeTimer()
        #expect(dup2(second, number) == number && fcntl(number, F_SETFD, FD_CLOEXEC) == 0)
        close(second)
        #expect(seen.isStillOpen, "the number and fdinfo alone cannot tell the two timers apart")
        #expect(!pin.isStillOpen)
    }

    @Test func aClosedNumberIsClosedThoughThePinHoldsItsFile() throws {
        let number = try Self.realtimeTimer()
        let seen = try #require(OpenDescriptor.current(number))
        let pin = try #require(PinnedDescriptor(seen))
        close(number)
        #expect(!pin.isStillOpen)
    }
}
