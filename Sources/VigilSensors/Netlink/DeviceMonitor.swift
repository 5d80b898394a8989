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
public final class DeviceMonitor: Source, Sendable {
    /// The kernel's uevent multicast group (udev re-broadcasts on group 2, which Vigil does not trust).
    private static let kernelGroup: UInt32 = 1
    private static let datagramsPerWakeup = 256

    private struct State {
        var isRunning = false
        /// Counts starts, stops and reopens; a loop callback of an older generation does nothing.
        var generation: UInt64 = 0
        var socket: NetlinkSocket?
        var registration: EventLoop.Registration?
        /// The pending reopen after a failure.
        var retry: EventLoop.Registration?
        var backoff = RetryBackoff()
        /// The receive buffer, taken out by the loop thread while it reads.
        var buffer = [UInt8](repeating: 0, count: 1 << 14)
        /// An error the next read reports instead of reading (``simulateSocketError(_:)``).
        var injectedError: Errno?
        /// The last event published, for ``latest``.
        var latest: DeviceEvent?
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
    private let state = FutexMutex(State())

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

    deinit { stopMonitoring() }

    /// Whether kernel uevents (and the namespace, if one was given) can be opened here.
    public var availability: Availability {
        NetlinkAvailability.check(namespace: namespace, netlinkProtocol: NETLINK_KOBJECT_UEVENT)
    }

    /// Whether the monitor is running (also while it waits to reopen a failed socket).
    public var isMonitoring: Bool { state.withLock { $0.isRunning } }

    /// Counters of what the monitor received and skipped (``NetlinkStatistics/ignored`` counts filtered events).
    public var statistics: NetlinkStatistics { counters.snapshot }

    /// Opens the socket and joins the kernel's uevent group.
    ///
    /// - Throws: ``SensorError`` when the socket or the namespace cannot be opened; the monitor then stays stopped.
    public func startMonitoring() throws(SensorError) {
        let generation: UInt64? = state.withLock { state in
            guard !state.isRunning else { return nil }
            state.isRunning = true
            state.generation &+= 1
            state.backoff.reset()
            return state.generation
        }
        guard let generation else { return }
        do throws(SensorError) {
            try open(generation)
        } catch {
            state.withLock { state in
                if state.generation == generation { state.isRunning = false }
            }
            throw error
        }
    }

    /// Stops watching and closes the socket.
    public func stopMonitoring() {
        let (registration, retry, socket) = state.withLock { state in
            state.isRunning = false
            state.generation &+= 1
            defer {
                state.registration = nil
                state.retry = nil
                state.socket = nil
            }
            return (state.registration, state.retry, state.socket)
        }
        registration?.cancel()
        retry?.cancel()
        socket?.close()
    }

    /// The monitor's current registrations with the event loop (the socket and a pending reopen), so tests can check
    /// that a released monitor leaves none behind.
    package var loopRegistrations: [EventLoop.Registration] {
        state.withLock { state in [state.registration, state.retry].compactMap { $0 } }
    }

    /// Makes the next read of the socket fail with `errno`, as if `recvmsg(2)` had, so tests can watch the monitor
    /// publish the error and recover.
    package func simulateSocketError(_ errno: Errno) {
        let generation: UInt64? = state.withLock { state in
            guard state.socket != nil else { return nil }
            state.injectedError = errno
            return state.generation
        }
        guard let generation else { return }
        do throws(SensorError) {
            let timer = try loop.schedule(after: .zero) { [weak self] in self?.handleReadable(generation) }
            let kept = state.withLock { state in
                guard state.generation == generation, state.retry == nil else { return false }
                state.retry = timer
                return true
            }
            if !kept { timer.cancel() }
        } catch {
            handleFailure(generation, error)
        }
    }

    /// Opens a socket for `generation` and registers it with the loop.
    private func open(_ generation: UInt64) throws(SensorError) {
        let socket = try NetlinkSocket(
            netlinkProtocol: NETLINK_KOBJECT_UEVENT, groups: Self.kernelGroup, namespace: namespace,
            receiveBufferSize: receiveBufferSize, passCredentials: true)
        let registration: EventLoop.Registration
        do throws(SensorError) {
            registration = try loop.register(fileDescriptor: socket.rawValue, interest: .readable) {
                [weak self] _ in self?.handleReadable(generation)
            }
        } catch {
            socket.close()
            throw error
        }
        let installed = state.withLock { state in
            guard state.isRunning, state.generation == generation, state.socket == nil else { return false }
            state.socket = socket
            state.registration = registration
            return true
        }
        if !installed {
            registration.cancel()
            socket.close()
        }
    }

    /// Reads what is pending outside the lock and publishes the events that pass the filter.
    private func handleReadable(_ generation: UInt64) {
        let taken = state.withLock { state -> (NetlinkSocket, [UInt8], Errno?)? in
            guard state.generation == generation, let socket = state.socket else { return nil }
            defer {
                state.buffer = []
                state.injectedError = nil
                state.retry = nil
            }
            return (socket, state.buffer, state.injectedError)
        }
        guard let (socket, taken, injected) = taken else { return }
        var buffer = taken.isEmpty ? [UInt8](repeating: 0, count: 1 << 14) : taken
        var events: [DeviceEvent] = []
        var failure: SensorError?
        do throws(SensorError) {
            if let injected { throw SensorError.from(injected, call: "recvmsg", path: socket.target) }
            try drain(socket, into: &buffer, &events)
        } catch {
            failure = error
        }
        let restored = buffer
        state.withLock { state in state.buffer = restored }
        for event in events { deliver(event) }
        if let failure { handleFailure(generation, failure) }
    }

    private func drain(_ socket: NetlinkSocket, into buffer: inout [UInt8], _ events: inout [DeviceEvent])
        throws(SensorError)
    {
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

    /// Closes the failed socket, publishes the error in-band, and schedules a reopen.
    private func handleFailure(_ generation: UInt64, _ error: SensorError) {
        let decided = state.withLock { state -> (EventLoop.Registration?, EventLoop.Registration?, NetlinkSocket?)? in
            guard state.isRunning, state.generation == generation else { return nil }
            state.generation &+= 1
            defer {
                state.registration = nil
                state.retry = nil
                state.socket = nil
            }
            return (state.registration, state.retry, state.socket)
        }
        guard let (registration, retry, socket) = decided else { return }
        registration?.cancel()
        retry?.cancel()
        socket?.close()
        scheduleReopen(generation &+ 1, after: error)
    }

    /// Publishes `error` as an unavailable event and schedules a reopen for `generation`, with a delay that doubles
    /// on each failure in a row.
    private func scheduleReopen(_ generation: UInt64, after error: SensorError) {
        let delay = state.withLock { state -> Duration? in
            guard state.isRunning, state.generation == generation else { return nil }
            return state.backoff.take()
        }
        guard let delay else { return }
        deliver(.unavailable(reason: "\(error); trying again in \(delay)"))
        do throws(SensorError) {
            let timer = try loop.schedule(after: delay) { [weak self] in self?.reopen(generation) }
            let kept = state.withLock { state in
                guard state.generation == generation else { return false }
                state.retry = timer
                return true
            }
            if !kept { timer.cancel() }
        } catch {
            // The loop cannot make timers (it was shut down): the monitor stays unavailable.
        }
    }

    /// Opens the socket again; on success, tells consumers to rescan, as events may have been lost meanwhile.
    private func reopen(_ generation: UInt64) {
        do throws(SensorError) {
            try open(generation)
        } catch {
            scheduleReopen(generation, after: error)
            return
        }
        let reopened = state.withLock { state in
            guard state.generation == generation, state.socket != nil else { return false }
            state.retry = nil
            state.backoff.reset()
            return true
        }
        if reopened { deliver(.overflow) }
    }

    /// The last event published; `nil` before the first. Kept across stop and start.
    public var latest: DeviceEvent? { state.withLock { $0.latest } }

    /// Does nothing: uevents are relayed as the kernel sends them, and there is no state to re-read. After a
    /// ``SensorEvent/Kind/overflow`` event, rescan sysfs yourself.
    public func refresh() {}

    /// Remembers `event` as the latest, then publishes it, never under the lock.
    private func deliver(_ event: DeviceEvent) {
        state.withLock { $0.latest = event }
        readings.publish(event)
    }

    private func accepts(_ event: Uevent) -> Bool {
        guard subsystems.isEmpty || subsystems.contains(event.subsystem) else { return false }
        guard devtypes.isEmpty || event.devtype.map(devtypes.contains) == true else { return false }
        return true
    }
}
