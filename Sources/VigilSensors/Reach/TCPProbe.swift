import CLinuxSupport
import Glibc

/// A TCP probe of one target: a non-blocking `connect(2)` watched on the event loop and bounded by a timer.
enum TCPProbe {
    /// One target's probe: what it probes, its socket while it runs, and its answer once it has one.
    struct State: Sendable {
        /// The address and route it probes; a change of either starts a new probe.
        var key: String
        /// Tells this probe's callbacks from a later probe's.
        var serial: UInt64
        var descriptor: FileDescriptor?
        var registration: EventLoop.Registration?
        var timer: EventLoop.Registration?
        var answer: TCPAnswer?

        /// Cancels the loop's callbacks and closes the socket; later calls do nothing.
        func cancel() {
            registration?.cancel()
            timer?.cancel()
            _ = descriptor?.close()
        }
    }

    /// Opens a non-blocking TCP socket and starts connecting to `address` port `port`.
    ///
    /// With a firewall mark the socket carries it (`SO_MARK`), so its packets take the route the marked lookup
    /// found and meet the same firewall rules; setting it needs `CAP_NET_ADMIN` or `CAP_NET_RAW`, and without them
    /// the probe fails with `EPERM` rather than probing a route the answer is not about.
    ///
    /// - Returns: The socket, and the connect's immediate outcome: nil while in progress (`EINPROGRESS`), else the
    ///   answer.
    /// - Throws: ``SensorError`` when no socket can be made or marked.
    static func connect(to address: IPAddress, port: Int, mark: UInt32?, namespace: String?) throws(SensorError)
        -> (FileDescriptor, TCPAnswer?)
    {
        let make = { () throws(SensorError) -> Int32 in
            let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            let fd = socket(address.family == .ipv4 ? AF_INET : AF_INET6, type, 0)
            guard fd >= 0 else { throw SensorError.from(Errno.current, call: "socket", path: "TCP probe") }
            if var mark, setsockopt(fd, SOL_SOCKET, SO_MARK, &mark, socklen_t(MemoryLayout<UInt32>.size)) != 0 {
                let errno = Errno.current
                close(fd)
                throw SensorError.from(errno, call: "setsockopt(SO_MARK)", path: "TCP probe")
            }
            return fd
        }
        let raw: Int32
        if let namespace {
            raw = try NetlinkSocket.inNamespace(namespace, make)
        } else {
            raw = try make()
        }
        let descriptor = FileDescriptor(raw)
        var storage = sockaddr_storage()
        let length = withUnsafeMutableBytes(of: &storage) { raw -> Int in
            if address.family == .ipv4 {
                var socketAddress = sockaddr_in()
                socketAddress.sin_family = sa_family_t(AF_INET)
                socketAddress.sin_port = in_port_t(UInt16(port).bigEndian)
                withUnsafeMutableBytes(of: &socketAddress.sin_addr) { $0.copyBytes(from: address.bytes) }
                raw.storeBytes(of: socketAddress, as: sockaddr_in.self)
                return MemoryLayout<sockaddr_in>.size
            }
            var socketAddress = sockaddr_in6()
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_port = in_port_t(UInt16(port).bigEndian)
            withUnsafeMutableBytes(of: &socketAddress.sin6_addr) { $0.copyBytes(from: address.bytes) }
            raw.storeBytes(of: socketAddress, as: sockaddr_in6.self)
            return MemoryLayout<sockaddr_in6>.size
        }
        let result = withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(raw, $0, socklen_t(length)) }
        }
        guard result != 0 else { return (descriptor, .answered) }
        let errno = Errno.current
        if errno.rawValue == EINPROGRESS || errno == .interrupted { return (descriptor, nil) }
        return (descriptor, answer(errno))
    }

    /// The answer of a finished connect from its `SO_ERROR`.
    static func finished(_ descriptor: FileDescriptor) -> TCPAnswer {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor.rawValue, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else {
            return .failed(errno: .current)
        }
        return error == 0 ? .answered : answer(Errno(rawValue: error))
    }

    private static func answer(_ errno: Errno) -> TCPAnswer {
        switch errno.rawValue {
        case ECONNREFUSED: return .refused
        case ETIMEDOUT: return .timedOut
        default: return .failed(errno: errno)
        }
    }
}

extension ReachabilityMonitor {
    /// Starts a probe for each reachable target with a port whose address or route changed, and ends the probes of
    /// targets that are no longer reachable.
    func probeChangedTargets(_ report: ReachabilityReport) {
        let generation = state.withLock { $0.generation }
        guard generation != 0 else { return }
        var wanted: [Int: (String, IPAddress, Int)] = [:]
        for (index, answer) in report.targets.enumerated() {
            guard let port = answer.target.port, answer.isReachable, let address = answer.address,
                let route = answer.route
            else { continue }
            wanted[index] = (Self.probeKey(address, route), address, port)
        }
        let (ended, started) = state.withLock { state -> ([TCPProbe.State], [(Int, UInt64, IPAddress, Int)]) in
            guard state.generation == generation else { return ([], []) }
            var ended: [TCPProbe.State] = []
            var started: [(Int, UInt64, IPAddress, Int)] = []
            for (index, probe) in state.probes where wanted[index]?.0 != probe.key {
                ended.append(probe)
                state.probes[index] = nil
            }
            for (index, (key, address, port)) in wanted where state.probes[index] == nil {
                state.nextProbeSerial &+= 1
                state.probes[index] = TCPProbe.State(key: key, serial: state.nextProbeSerial)
                started.append((index, state.nextProbeSerial, address, port))
            }
            return (ended, started)
        }
        for probe in ended { probe.cancel() }
        for (index, serial, address, port) in started {
            startProbe(index: index, serial: serial, address: address, port: port, generation: generation)
        }
    }

    /// Ends every probe, so the next report probes again.
    func restartProbes() {
        let probes = state.withLock { state in
            defer { state.probes = [:] }
            return state.probes
        }
        for probe in probes.values { probe.cancel() }
    }

    private func startProbe(index: Int, serial: UInt64, address: IPAddress, port: Int, generation: UInt64) {
        let descriptor: FileDescriptor
        let immediate: TCPAnswer?
        do throws(SensorError) {
            (descriptor, immediate) = try TCPProbe.connect(to: address, port: port, mark: mark, namespace: namespace)
        } catch {
            finishProbe(index: index, serial: serial, answer: .failed(errno: Self.errno(of: error)))
            return
        }
        guard immediate == nil else {
            _ = descriptor.close()
            finishProbe(index: index, serial: serial, answer: immediate!)
            return
        }
        let registration: EventLoop.Registration
        let timer: EventLoop.Registration
        do throws(SensorError) {
            registration = try driver.loop.register(fileDescriptor: descriptor.rawValue, interest: .writable) {
                [weak self] _ in
                self?.finishProbe(index: index, serial: serial, answer: TCPProbe.finished(descriptor))
            }
            do throws(SensorError) {
                timer = try driver.loop.schedule(after: probeTimeout) { [weak self] in
                    self?.finishProbe(index: index, serial: serial, answer: .timedOut)
                }
            } catch {
                registration.cancel()
                throw error
            }
        } catch {
            _ = descriptor.close()
            finishProbe(index: index, serial: serial, answer: .failed(errno: Self.errno(of: error)))
            return
        }
        let kept = state.withLock { state -> Bool in
            guard state.generation == generation, state.probes[index]?.serial == serial,
                state.probes[index]?.answer == nil
            else { return false }
            state.probes[index]?.descriptor = descriptor
            state.probes[index]?.registration = registration
            state.probes[index]?.timer = timer
            return true
        }
        if !kept {
            // Stopped, answered already (the loop saw the connect end), or replaced while it was being set up.
            registration.cancel()
            timer.cancel()
            _ = descriptor.close()
        }
    }

    /// Records a probe's answer, closes its socket, and publishes the report if it changed.
    private func finishProbe(index: Int, serial: UInt64, answer: TCPAnswer) {
        let (probe, report) = state.withLock { state -> (TCPProbe.State?, ReachabilityReport?) in
            guard var probe = state.probes[index], probe.serial == serial, probe.answer == nil else {
                return (nil, nil)
            }
            let running = probe
            probe.answer = answer
            probe.descriptor = nil
            probe.registration = nil
            probe.timer = nil
            state.probes[index] = probe
            return (running, state.path == nil ? nil : Self.report(state, targets: targets))
        }
        probe?.cancel()
        if let report { publishIfChanged(report) }
    }

    private static func errno(of error: SensorError) -> Errno {
        if case .systemCall(_, _, let errno) = error { return errno }
        return .invalidArgument
    }
}
