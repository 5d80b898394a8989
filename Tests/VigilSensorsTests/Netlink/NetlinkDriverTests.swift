import CLinuxSupport
import Glibc
import Testing
import Vigil
import VigilTestSupport

@testable import VigilSensors

/// The netlink driver shared by the network and device monitors, driven directly so a test can order what the loop
/// thread and a caller do.
@Suite(.timeLimit(.minutes(5))) struct NetlinkDriverTests {
    /// A source on a uevent socket that joins no group, so it never becomes readable by itself.
    private final class QuietSource: NetlinkDriven {
        let reopened = FutexMutex<[UInt64]>([])

        func openSocket() throws(SensorError) -> NetlinkSocket {
            try NetlinkSocket(
                netlinkProtocol: NETLINK_KOBJECT_UEVENT, groups: 0, namespace: nil, receiveBufferSize: 1 << 16,
                passCredentials: false)
        }

        func socketOpened(_ socket: NetlinkSocket, generation: UInt64, isStart: Bool) throws(SensorError) {}

        func drain(_ socket: NetlinkSocket, into buffer: inout [UInt8], generation: UInt64) throws(SensorError) {
            while case .datagram = try socket.receive(into: &buffer) {}
        }

        func socketFailed(_ error: SensorError, retryingIn delay: Duration) {}

        func socketReopened(generation: UInt64) { reopened.withLock { $0.append(generation) } }
    }

    /// `simulateSocketError` schedules its read, then keeps the timer under the socket's generation; the loop thread
    /// may run the read first, fail the socket and schedule the reopen under the next generation. The late timer of
    /// the ended generation must not take the reopen down with it.
    @Test func aLateTimerOfAnEndedGenerationLeavesTheReopenPending() async throws {
        let loop = EventLoop()
        defer { loop.shutdown() }
        let driver = NetlinkDriver(loop: loop, bufferSize: 1 << 12)
        let source = QuietSource()
        try driver.start(source)
        defer { driver.stop() }
        let failed = try #require(driver.current).generation

        driver.fail(source, generation: failed, error: .unavailable(source: "test", reason: "simulated"))
        let late = try loop.schedule(after: .seconds(3600)) {}
        driver.addTimer(late, generation: failed)

        #expect(late.isCancelled, "a timer of an ended generation is cancelled at once")
        #expect(driver.registrations.count == 1, "the reopen stays pending")
        #expect(await eventually { source.reopened.withLock { $0 } == [failed + 1] }, "the socket is reopened")
        #expect(driver.current?.generation == failed + 1)
        #expect(driver.isRunning)
    }
}
