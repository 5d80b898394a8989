import CLinuxSupport
import Glibc
import Vigil

/// Watches device hotplug through the kernel's uevents, like `udevadm monitor --kernel`.
///
/// It listens to the kernel's own multicast group of `NETLINK_KOBJECT_UEVENT`, so it works without udev (in
/// containers, in minimal systems) and sees events before udev has processed them. Only messages the kernel sent are
/// trusted: sender port 0 and uid 0 in the credentials `SO_PASSCRED` attaches; anything else is dropped and counted.
/// Events outside ``subsystems`` (and ``devtypes``) are dropped on the way in. When the kernel drops events because
/// the receive buffer is full, ``readings`` gets ``DeviceEvent/overflow`` so consumers know to rescan.
///
/// Events are published on the event-loop thread, never under a lock of the monitor.
/// If the socket fails for good (an error other than dropped messages), ``readings`` fails with the
/// ``SensorError`` and the monitor stops.
public final class DeviceMonitor: Source, Sendable {
    /// The kernel's uevent multicast group (udev re-broadcasts on group 2, which Vigil does not trust).
    private static let kernelGroup: UInt32 = 1
    private static let datagramsPerWakeup = 256

    private struct State {
        var socket: NetlinkSocket?
        var registration: EventLoop.Registration?
        var buffer = [UInt8](repeating: 0, count: 1 << 14)
    }

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
    private let loop: EventLoop
    private let counters = NetlinkCounters()
    private let state = Mutex(State())

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
        self.loop = eventLoop
    }

    /// Whether kernel uevents (and the namespace, if one was given) can be opened here.
    public var availability: Availability {
        NetlinkAvailability.check(namespace: namespace, netlinkProtocol: NETLINK_KOBJECT_UEVENT)
    }

    /// Whether the monitor is running.
    public var isMonitoring: Bool { state.withLock { $0.socket != nil } }

    /// Counters of what the monitor received and skipped (``NetlinkStatistics/ignored`` counts filtered events).
    public var statistics: NetlinkStatistics { counters.snapshot }

    /// Opens the socket and joins the kernel's uevent group.
    ///
    /// - Throws: ``SensorError`` when the socket or the namespace cannot be opened.
    public func startMonitoring() throws {
        try state.withLock { state throws(SensorError) in
            guard state.socket == nil else { return }
            let socket = try NetlinkSocket(
                netlinkProtocol: NETLINK_KOBJECT_UEVENT, groups: Self.kernelGroup, namespace: namespace,
                receiveBufferSize: receiveBufferSize, passCredentials: true)
            do throws(SensorError) {
                state.registration = try loop.register(fileDescriptor: socket.rawValue, interest: .readable) {
                    [weak self] _ in self?.handleReadable()
                }
                state.socket = socket
            } catch {
                socket.close()
                throw error
            }
        }
    }

    /// Stops watching and closes the socket.
    public func stopMonitoring() {
        let (registration, socket) = state.withLock { state in
            defer {
                state.registration = nil
                state.socket = nil
            }
            return (state.registration, state.socket)
        }
        registration?.cancel()
        socket?.close()
    }

    private func handleReadable() {
        let outcome = state.withLock { state -> Result<[DeviceEvent], SensorError> in
            Result { () throws(SensorError) -> [DeviceEvent] in try drain(&state) }
        }
        switch outcome {
        case .success(let events):
            for event in events { readings.publish(event) }
        case .failure(let error):
            stopMonitoring()
            readings.fail(error)
        }
    }

    private func drain(_ state: inout State) throws(SensorError) -> [DeviceEvent] {
        guard let socket = state.socket else { return [] }
        var events: [DeviceEvent] = []
        for _ in 0..<Self.datagramsPerWakeup {
            switch try socket.receive(into: &state.buffer) {
            case .wouldBlock:
                return events
            case .overflow:
                counters.add(.overflows)
                events.append(.overflow)
            case .datagram(let count, let sender, let truncated):
                counters.add(.datagrams)
                guard sender.isKernelWithCredentials else {
                    counters.add(.rejected)
                    continue
                }
                let event = state.buffer.withUnsafeBytes { bytes in
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
                events.append(.uevent(event))
            }
        }
        return events
    }

    private func accepts(_ event: Uevent) -> Bool {
        guard subsystems.isEmpty || subsystems.contains(event.subsystem) else { return false }
        guard devtypes.isEmpty || event.devtype.map(devtypes.contains) == true else { return false }
        return true
    }
}
