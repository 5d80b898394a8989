import Dispatch
import Glibc
import Synchronization
import Testing
import Vigil
import VigilTestSupport

@testable import VigilSensors

/// ``RadioMonitor`` on a fake `class/rfkill` with a pipe standing in for `/dev/rfkill` (one event per read, as the
/// kernel hands them out): 8- and 9-byte events, the size request refused, truncated events, unknown operations and
/// types, switches added and removed, the 1,000-event burst that may have lost events, and uevents.
@Suite(.timeLimit(.minutes(5))) struct RadioMonitorTests {
    /// A started monitor, its tree, the pipe's write end and its private loop.
    final class Rig {
        let sys = FakeSysfsTree()
        let loop = EventLoop()
        let changes = PublishSubject<DeviceEvent>()
        let writeEnd: Int32
        let monitor: RadioMonitor
        private let readEnd: Int32
        /// Whether the test closed the write end itself (its end of file); deinit then must not close that number,
        /// which another thread may have opened again meanwhile.
        private let writerClosed = FutexMutex(false)

        /// `hci0` (rfkill0, unblocked) and `phy0` (rfkill1, soft-blocked); `acceptsSize`: whether the size request
        /// is accepted.
        init(acceptsSize: Bool) throws {
            sys.device(
                "class/rfkill/rfkill0", RadioSwitchReadTests.attributes(name: "hci0", type: "bluetooth", index: "0"))
            sys.device("class/rfkill/rfkill1", RadioSwitchReadTests.attributes(soft: "1", state: "0"))
            guard let ends = closeOnExecPipe() else {
                throw SensorError.from(Errno.current, call: "pipe2", path: "")
            }
            for end in [ends.read, ends.write] { _ = fcntl(end, F_SETFL, O_NONBLOCK) }
            writeEnd = ends.write
            let readEnd = ends.read
            self.readEnd = readEnd
            // Each open owns a duplicate: the monitor closes what it opened, the rig its own read end.
            let access = RfkillAccess(
                open: { (_) throws(SensorError) in
                    let duplicate = fcntl(readEnd, F_DUPFD_CLOEXEC, 0)
                    guard duplicate >= 0 else { throw SensorError.from(Errno.current, call: "dup", path: "") }
                    return FileDescriptor(duplicate)
                },
                requestEventSize: { _, size in acceptsSize })
            monitor = RadioMonitor(
                root: sys.root, devRoot: sys.root + "/dev", updateInterval: .seconds(3600), changes: changes,
                eventLoop: loop, access: access)
            try monitor.startMonitoring()
        }

        deinit {
            monitor.stopMonitoring()
            if !writerClosed.withLock({ $0 }) { close(writeEnd) }
            close(readEnd)
            loop.shutdown()
        }

        /// Closes the write end once: the device ends.
        func closeWriter() {
            let first = writerClosed.withLock { closed in
                defer { closed = true }
                return !closed
            }
            if first { close(writeEnd) }
        }

        var value: RadioSwitches? { monitor.readings.value.value }

        func radio(_ index: UInt32) -> RadioSwitch? { value?.radioSwitch(index: index) }

        func write(_ bytes: [UInt8]) {
            let count = bytes.withUnsafeBytes { Glibc.write(writeEnd, $0.baseAddress, $0.count) }
            precondition(count == bytes.count)
        }

        func write(_ events: [RfkillEvent], size: Int) {
            write(events.flatMap { $0.bytes(size: size) })
        }

        /// Waits until every handler already ready on the loop has run.
        func settle() async -> Bool {
            let done = Flag()
            _ = try? loop.schedule(after: .zero) { done.set() }
            return await eventually { done.isSet }
        }
    }

    /// A flag set on the loop thread and read by the test.
    final class Flag: Sendable {
        private let value = Mutex(false)
        func set() { value.withLock { $0 = true } }
        var isSet: Bool { value.withLock { $0 } }
    }

    static func change(
        _ index: UInt32, soft: Bool, hard: Bool, reasons: RadioSwitch.HardBlockReasons? = nil, type: UInt8 = 1
    )
        -> RfkillEvent
    {
        RfkillEvent(
            index: index, type: type, operation: .change, softBlocked: soft, hardBlocked: hard,
            hardBlockReasons: reasons)
    }

    static func started(acceptsSize: Bool = false) async throws -> Rig {
        let rig = try Rig(acceptsSize: acceptsSize)
        #expect(await eventually { rig.value != nil }, "no first read")
        return rig
    }

    @Test func firstReadingSaysTheEventDeviceIsFollowed() async throws {
        let rig = try await Self.started()
        let value = try #require(rig.value)
        #expect(value.switches.map(\.name) == ["rfkill0", "rfkill1"])
        #expect(value.eventDevice == rig.sys.root + "/dev/rfkill" && value.eventDeviceProblem == nil)
        #expect(value.description == "hci0 (rfkill0, bluetooth) unblocked; phy0 (rfkill1, wlan) soft-blocked")
        #expect(rig.monitor.availability == .available)
    }

    /// The size request refused: 8-byte reads, so two events written at once are read as two.
    @Test func eightByteEventsWhereTheSizeRequestIsRefused() async throws {
        let rig = try await Self.started(acceptsSize: false)
        rig.write([Self.change(1, soft: false, hard: true), Self.change(0, soft: true, hard: false)], size: 8)
        #expect(await eventually { rig.radio(0)?.softBlocked == true })
        #expect(rig.radio(1)?.softBlocked == false && rig.radio(1)?.hardBlocked == true)
        #expect(rig.radio(1)?.hardBlockReasons == nil, "an 8-byte event does not say why")
    }

    @Test func nineByteEventsCarryTheReasons() async throws {
        let rig = try await Self.started(acceptsSize: true)
        rig.write(
            [
                Self.change(1, soft: false, hard: true, reasons: [.signal, .notOwner]),
                Self.change(0, soft: true, hard: false),
            ],
            size: 9)
        #expect(await eventually { rig.radio(0)?.softBlocked == true })
        #expect(rig.radio(1)?.hardBlockReasons == [.signal, .notOwner])
        rig.write([Self.change(1, soft: false, hard: false, reasons: [])], size: 9)
        #expect(await eventually { rig.radio(1)?.isUnblocked == true })
        #expect(rig.radio(1)?.hardBlockReasons == [])
    }

    /// Unknown types are kept as sysfs named them; an unknown operation, a truncated event and a switch added re-read
    /// sysfs, which alone knows what changed (the fake sysfs changed without an event).
    @Test(arguments: ["truncated", "unknown operation", "change all", "unknown switch", "added"])
    func whatAnEventCannotSayIsReReadFromSysfs(kind: String) async throws {
        let rig = try await Self.started()
        rig.sys.write("class/rfkill/rfkill0/soft", "1\n")
        rig.sys.device(
            "class/rfkill/rfkill5", RadioSwitchReadTests.attributes(name: "cdc-wdm0", type: "wwan", index: "5"))
        switch kind {
        case "truncated": rig.write(Array(Self.change(1, soft: true, hard: false).bytes(size: 8).prefix(5)))
        case "unknown operation":
            rig.write(
                [RfkillEvent(index: 1, type: 1, operation: .unknown(9), softBlocked: true, hardBlocked: false)], size: 8
            )
        case "change all":
            rig.write(
                [RfkillEvent(index: 0, type: 0, operation: .changeAll, softBlocked: true, hardBlocked: false)], size: 8)
        case "unknown switch": rig.write([Self.change(7, soft: true, hard: false)], size: 8)
        default:
            rig.write(
                [RfkillEvent(index: 5, type: 5, operation: .add, softBlocked: false, hardBlocked: false)], size: 8)
        }
        #expect(await eventually { rig.radio(0)?.softBlocked == true }, "\(kind): not re-read")
        #expect(rig.value?.switches.count == 3)
    }

    @Test func unknownTypesAndRemovalsApplyAsTheySay() async throws {
        let rig = try await Self.started()
        rig.write([Self.change(1, soft: false, hard: false, type: 200)], size: 8)
        #expect(await eventually { rig.radio(1)?.softBlocked == false })
        #expect(rig.radio(1)?.type == "wlan")
        rig.write([RfkillEvent(index: 0, type: 2, operation: .delete, softBlocked: false, hardBlocked: false)], size: 8)
        #expect(await eventually { rig.value?.switches.map(\.name) == ["rfkill1"] })
    }

    /// The end of the device (the pipe closed) stops following it and says so; sysfs still serves.
    @Test func anEndedDeviceIsReportedAndSysfsStillServes() async throws {
        let rig = try await Self.started()
        rig.closeWriter()
        #expect(await eventually { rig.value?.eventDeviceProblem?.contains("end of file") == true })
        #expect(rig.value?.eventDevice == nil && rig.value?.switches.count == 2)
        rig.sys.write("class/rfkill/rfkill0/soft", "1\n")
        rig.changes.publish(
            .uevent(Uevent(action: .change, devpath: BytePath("/devices/x/rfkill0"), subsystem: BytePath("rfkill"))))
        #expect(await eventually { rig.radio(0)?.softBlocked == true })
    }

    /// 999 stale events drained at once are applied; 1,000 may have overflowed the kernel's queue, so sysfs is
    /// re-read after them. The loop is held while they are written, so they wait as they would in the kernel.
    @Test(arguments: [999, 1000, 1500]) func aBurstAtTheKernelsLimitIsResynchronized(count: Int) async throws {
        let rig = try await Self.started()
        let first = try #require(rig.value)
        let gate = DispatchSemaphore(value: 0)
        let entered = Flag()
        _ = try rig.loop.schedule(after: .zero) {
            entered.set()
            gate.wait()
        }
        #expect(await eventually { entered.isSet })
        rig.sys.write("class/rfkill/rfkill1/soft", "0\n")
        rig.write(Array(repeating: Self.change(0, soft: true, hard: false), count: count), size: 8)
        gate.signal()
        #expect(await eventually { rig.value != first })
        #expect(await rig.settle())
        if count < RfkillStream.kernelQueueLimit {
            #expect(rig.radio(0)?.softBlocked == true && rig.radio(1)?.softBlocked == true, "applied, not re-read")
        } else {
            #expect(rig.radio(0)?.softBlocked == false && rig.radio(1)?.softBlocked == false, "re-read from sysfs")
        }
    }

    @Test(arguments: [Uevent.Action.add, .remove, .change]) func rfkillUeventsReRead(action: Uevent.Action) async throws
    {
        let rig = try await Self.started()
        rig.sys.write("class/rfkill/rfkill0/hard", "1\n")
        rig.changes.publish(
            .uevent(Uevent(action: .change, devpath: BytePath("/devices/x/input"), subsystem: BytePath("input"))))
        #expect(await rig.settle())
        #expect(rig.radio(0)?.hardBlocked == false, "another subsystem reads nothing")
        rig.changes.publish(
            .uevent(Uevent(action: action, devpath: BytePath("/devices/x/rfkill0"), subsystem: BytePath("rfkill"))))
        #expect(await eventually { rig.radio(0)?.hardBlocked == true })
    }

    @Test func lostUeventsReRead() async throws {
        let rig = try await Self.started()
        rig.sys.write("class/rfkill/rfkill0/soft", "1\n")
        rig.changes.publish(.unavailable(reason: "the uevent socket overflowed"))
        #expect(await eventually { rig.radio(0)?.softBlocked == true })
    }

    @Test func aRefusedEventDeviceLeavesSysfsAndSaysWhy() async throws {
        let sys = FakeSysfsTree()
        sys.device("class/rfkill/rfkill0", RadioSwitchReadTests.attributes())
        let monitor = RadioMonitor(
            root: sys.root, devRoot: sys.root + "/dev", updateInterval: .seconds(3600),
            access: .refusing("no such device here"))
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(await eventually { monitor.readings.value.value != nil })
        let value = try #require(monitor.readings.value.value)
        #expect(value.eventDevice == nil && value.switches.count == 1)
        #expect(value.eventDeviceProblem?.contains("sysfs and uevents still report the switches") == true)
        // Refused for want of permission: the reading says so, and the switches are still read.
        let refused = RadioMonitor(
            root: sys.root, devRoot: sys.root + "/dev", updateInterval: .seconds(3600),
            access: RfkillAccess(
                open: { (path) throws(SensorError) in throw .permissionDenied(path: path) },
                requestEventSize: { _, _ in true }))
        try refused.startMonitoring()
        defer { refused.stopMonitoring() }
        #expect(await eventually { refused.readings.value.value != nil })
        let problem = try #require(refused.readings.value.value?.eventDeviceProblem)
        #expect(problem.hasPrefix(sys.root + "/dev/rfkill: permission denied"), "\(problem)")
        #expect(refused.readings.value.value?.switches.count == 1)
        // A device node that is not a character device is refused by the kernel access too.
        sys.write("dev/rfkill", "not a device\n")
        #expect(throws: SensorError.self) { try RfkillAccess.kernel.open(sys.root + "/dev/rfkill") }
    }
}
