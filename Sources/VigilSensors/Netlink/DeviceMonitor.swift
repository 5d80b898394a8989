import CLinuxSupport
import Glibc
import Vigil

/// Watches device hotplug through the kernel's uevents, like `udevadm monitor --kernel`.
///
/// It listens to the kernel's own multicast group of `NETLINK_KOBJECT_UEVENT`, so it works without udev (in
/// containers, in minimal systems) and sees events before udev has processed them. Only messages the kernel sent are
/// trusted: sender port 0 and uid 0 in the credentials `SO_PASSCRED` attaches; anything else is dropped and counted.
/// Events outside ``subsystems`` (and ``devtypes``) are dropped on the way in. When the kernel drops events because
/// the receive buffer is full, ``readings`` gets ``SensorEvent/Kind/overflow`` so consumers know to rescan.
///
/// Errors travel in-band: when the socket fails (an error other than dropped events), ``readings`` gets
/// ``SensorEvent/Kind/unavailable(reason:)``, and the monitor reopens the socket after a delay that doubles up to 30
/// seconds, then publishes ``SensorEvent/Kind/overflow`` (events may have been lost meanwhile). ``readings`` never
/// completes or fails. A released monitor stops and closes its socket.
///
/// Events are published on the event-loop thread, never under a lock of the monitor.
public final class DeviceMonitor: Source, NetlinkDriven, Sendable {
    /// The kernel's uevent multicast group (udev re-broadcasts on group 2, which Vigil does not trust).
    private static let kernelGroup: UInt32 = 1
    private static let datagramsPerWakeup = 256

    /// The human name of the source.
    public let name = "Devices"
    /// Device events as they happen.
    public let readings = PublishSubject<DeviceEvent>()
    /// The subsystems to report (for example `["net", "power_supply"]`); empty means all.
    public let subsystems: Set<String>
    /// The device types to report (for example `["usb_device"]`); empty means all.
    public let devtypes: Set<String>
    /// The network namespace watched, as a path, or `nil` for the process's own.
    public let namespace: String?

    private let receiveBufferSize: Int
    private let driver: NetlinkDriver
    private let counters = NetlinkCounters()
    /// The last event published, for ``latest``.
    private let last = FutexMutex<DeviceEvent?>(nil)

    /// Creates a monitor; it does nothing until ``startMonitoring()``.
    ///
    /// - Parameters:
    ///   - subsystems: Report only these subsystems; empty for all.
    ///   - devtypes: Report only these device types; empty for all.
    ///   - namespace: A network namespace (`/var/run/netns/NAME`, `/proc/PID/ns/net`). The kernel delivers a network
    ///     device's uevents only inside the device's namespace, so watching a namespace's interfaces needs this.
    ///   - receiveBufferSize: The socket's receive buffer in bytes.
    ///   - eventLoop: The loop that watches the socket.
    public init(
        subsystems: Set<String> = [], devtypes: Set<String> = [], namespace: String? = nil,
        receiveBufferSize: Int = 4 << 20, eventLoop: EventLoop = .shared
    ) {
        self.subsystems = subsystems
        self.devtypes = devtypes
        self.namespace = namespace
        self.receiveBufferSize = receiveBufferSize
        driver = NetlinkDriver(loop: eventLoop, bufferSize: 1 << 14)
    }

    deinit { stopMonitoring() }

    /// Whether kernel uevents (and the namespace, if one was given) can be opened here.
    public var availability: Availability {
        NetlinkAvailability.check(namespace: namespace, netlinkProtocol: NETLINK_KOBJECT_UEVENT)
    }

    /// Whether the monitor is running (also while it waits to reopen a failed socket).
    public var isMonitoring: Bool { driver.isRunning }

    /// Counters of what the monitor received and skipped (``NetlinkStatistics/ignored`` counts filtered events).
    public var statistics: NetlinkStatistics { counters.snapshot }

    /// Opens the socket and joins the kernel's uevent group; concurrent calls start once.
    ///
    /// - Throws: ``SensorError`` when the socket or the namespace cannot be opened; the monitor then stays stopped
    ///   and has published nothing.
    public func startMonitoring() throws(SensorError) { try driver.start(self) }

    /// Stops watching and closes the socket.
    public func stopMonitoring() { driver.stop() }

    /// The monitor's current registrations with the event loop (the socket and a pending reopen), so tests can check
    /// that a released monitor leaves none behind.
    package var loopRegistrations: [EventLoop.Registration] { driver.registrations }

    /// Makes the next read of the socket fail with `errno`, as if `recvmsg(2)` had, so tests can watch the monitor
    /// publish the error and recover.
    package func simulateSocketError(_ errno: Errno) { driver.simulateSocketError(errno, for: self) }

    func openSocket() throws(SensorError) -> NetlinkSocket {
        try NetlinkSocket(
            netlinkProtocol: NETLINK_KOBJECT_UEVENT, groups: Self.kernelGroup, namespace: namespace,
            receiveBufferSize: receiveBufferSize, passCredentials: true)
    }

    func socketOpened(_ socket: NetlinkSocket, generation: UInt64, isStart: Bool) throws(SensorError) {}

    /// Reads up to a wake-up's worth of datagrams and publishes the events that pass the filter, also those read
    /// before a failure.
    func drain(_ socket: NetlinkSocket, into buffer: inout [UInt8], generation: UInt64) throws(SensorError) {
        var events: [DeviceEvent] = []
        defer { for event in events { deliver(event) } }
        for _ in 0..<Self.datagramsPerWakeup {
            let received = try socket.receive(into: &buffer)
            let time = ReadingTime.now()
            switch received {
            case .wouldBlock:
                return
            case .overflow:
                counters.add(.overflows)
                events.append(DeviceEvent(.overflow, time: time))
            case .datagram(let count, let sender, let truncated):
                counters.add(.datagrams)
                guard sender.isKernelWithCredentials else {
                    counters.add(.rejected)
                    continue
                }
                let event = buffer.withUnsafeBytes { bytes in
                    truncated ? nil : UeventParser.parse(UnsafeRawBufferPointer(rebasing: bytes[..<count]))
                }
                guard let event else {
                    counters.add(.malformed)
                    continue
                }
                guard accepts(event) else {
                    counters.add(.ignored)
                    continue
                }
                events.append(DeviceEvent(.event(event), time: time))
            }
        }
    }

    /// Publishes the failure as an unavailable event.
    func socketFailed(_ error: SensorError, retryingIn delay: Duration) {
        deliver(.unavailable(reason: "\(error); trying again in \(delay)"))
    }

    /// Tells consumers to rescan, as events may have been lost while the socket was closed.
    func socketReopened(generation: UInt64) {
        driver.succeeded()
        deliver(.overflow)
    }

    /// The last event published; `nil` before the first. Kept across stop and start.
    public var latest: DeviceEvent? { last.withLock { $0 } }

    /// Does nothing: uevents are relayed as the kernel sends them, and there is no state to re-read. After a
    /// ``SensorEvent/Kind/overflow`` event, rescan sysfs yourself.
    public func refresh() {}

    /// Remembers `event` as the latest, then publishes it, never under the lock.
    private func deliver(_ event: DeviceEvent) {
        last.withLock { $0 = event }
        readings.publish(event)
    }

    private func accepts(_ event: Uevent) -> Bool {
        // Names that are not UTF-8 match no `String` of the filters.
        guard subsystems.isEmpty || event.subsystem.string.map(subsystems.contains) == true else { return false }
        guard devtypes.isEmpty || event.devtype?.string.map(devtypes.contains) == true else { return false }
        return true
    }
}
