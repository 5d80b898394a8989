import Glibc
import Vigil

/// Captures scans of a channel set from `/dev/iio:deviceN` through the event loop.
///
/// Start disables the buffer (it may be left on by a crashed process), enables the channels' scan elements and the
/// timestamp (disabling the others), sets the buffer length and, when the device needs a trigger and has none, its
/// own trigger (`<name>-dev<N>`, else the first one listed), sets the sampling frequency when asked, enables the
/// buffer and opens the device node. Stop and failure undo this: the buffer is disabled, the scan elements are
/// restored and a trigger it selected is cleared.
final class IIOBufferedSampler: IIOSampler {
    private struct Running {
        var registration: EventLoop.Registration?
        var node: FileDescriptor
        var layout: ScanLayout
        var calibrations: [ChannelCalibration]
        var pending: [UInt8] = []
        var restore: Restore
    }

    /// What to write back when the buffer is torn down.
    private struct Restore {
        var enables: [(path: String, text: String)] = []
        var frequency: (path: String, previous: String)?
        /// The `current_trigger` attribute, when start selected the trigger.
        var selectedTrigger: String?
    }

    private enum ReadOutcome {
        case nothing
        case scans([IIOScan], [ChannelCalibration])
        case failed(SensorError)
    }

    private let channels: IIOChannelSet
    private let rate: Double?
    private let length: Int
    private let eventLoop: EventLoop
    private let handler: @Sendable (IIOSamplerEvent) -> Void
    private let state = FutexMutex<Running?>(nil)

    init(
        channels: IIOChannelSet, rate: Double?, length: Int, eventLoop: EventLoop,
        handler: @escaping @Sendable (IIOSamplerEvent) -> Void
    ) {
        self.channels = channels
        self.rate = rate
        self.length = length
        self.eventLoop = eventLoop
        self.handler = handler
    }

    deinit {
        stop()
    }

    private var device: IIODevice { channels.device }
    private var enablePath: String { "\(device.path)/buffer/enable" }
    private var bufferedInterface: String { "\(device.id) (\(device.name)) buffered mode" }

    func start() throws(SensorError) {
        guard device.hasBuffer, !device.scanElements.isEmpty else {
            throw SensorError.unsupported(
                interface: bufferedInterface,
                reason: "the device has no buffer or scan_elements")
        }
        try SysfsFile.write("0", to: enablePath)
        var restore = Restore()
        do throws(SensorError) {
            let layout = try enableScanElements(&restore)
            let calibrations = try channels.readCalibrations()
            try SysfsFile.write(String(max(2, length)), to: "\(device.path)/buffer/length")
            restore.selectedTrigger = try selectTrigger()
            if let rate {
                restore.frequency = try IIOSamplerSupport.configureFrequency(rate, type: channels.type, device: device)
            }
            try SysfsFile.write("1", to: enablePath)
            let node = try Self.openNode(device.deviceNodePath)
            let registration: EventLoop.Registration
            do {
                registration = try eventLoop.register(fileDescriptor: node.rawValue, interest: .readable) {
                    [weak self] _ in self?.readAvailable()
                }
            } catch {
                node.close()
                throw error
            }
            // The node and its registration are published together: a stop racing this start finds both or neither,
            // so it never closes the node while the loop may still read it. (Published before registering, a stop in
            // between closed the node that was then registered.) The loop is level-triggered: a scan that arrived
            // before this is read at the next wake-up.
            state.withLock {
                $0 = Running(
                    registration: registration, node: node, layout: layout, calibrations: calibrations,
                    restore: restore)
            }
        } catch {
            let running = state.withLock { $0.take() }
            running?.node.close()
            teardown(running?.restore ?? restore)
            throw error
        }
    }

    func stop() {
        guard let running = state.withLock({ $0.take() }) else { return }
        running.registration?.cancel()
        running.node.close()
        teardown(running.restore)
    }

    /// Enables the channels and the timestamp, disables the other elements, and lays out the scan.
    private func enableScanElements(_ restore: inout Restore) throws(SensorError) -> ScanLayout {
        let wanted = Set(channels.channels.map(\.name) + ["timestamp"])
        let byName = Dictionary(device.scanElements.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for channel in channels.channels where byName[channel.name] == nil {
            throw SensorError.unsupported(
                interface: bufferedInterface, reason: "no scan element for \(channel.name)")
        }
        var enabled: [(name: String, index: Int, type: ScanElementType)] = []
        for element in device.scanElements {
            let previous = try SysfsFile.readText(element.enablePath)
            let enable = wanted.contains(element.name)
            restore.enables.append((element.enablePath, previous))
            try SysfsFile.write(enable ? "1" : "0", to: element.enablePath)
            if enable {
                let format = try element.readFormat()
                enabled.append((element.name, format.index, format.type))
            }
        }
        return try ScanLayout(channels: enabled)
    }

    /// Selects the device's own trigger when it needs one and none is set.
    ///
    /// - Returns: The `current_trigger` path when it selected one, to clear on teardown.
    private func selectTrigger() throws(SensorError) -> String? {
        guard device.hasTrigger else { return nil }
        let currentPath = "\(device.path)/trigger/current_trigger"
        guard try SysfsFile.readText(currentPath).isEmpty else { return nil }
        let triggers = try SysfsFile.listDirectory(device.busPath).filter { $0.hasPrefix("trigger") }
            .compactMap { entry in try? SysfsFile.readText("\(device.busPath)/\(entry)/name") }
        let own = "\(device.name)-dev\(device.number)"
        guard let trigger = triggers.first(where: { $0 == own }) ?? triggers.first else {
            throw SensorError.unsupported(
                interface: bufferedInterface,
                reason: "the device needs a trigger and none exists")
        }
        try SysfsFile.write(trigger, to: currentPath)
        return currentPath
    }

    private func teardown(_ restore: Restore) {
        try? SysfsFile.write("0", to: enablePath)
        // A name that matches no trigger clears it (an empty write would not reach the driver).
        if let selectedTrigger = restore.selectedTrigger { try? SysfsFile.write("\n", to: selectedTrigger) }
        for (path, text) in restore.enables { try? SysfsFile.write(text, to: path) }
        IIOSamplerSupport.restoreFrequency(restore.frequency)
    }

    /// Opens the device node non-blocking, refusing what cannot deliver scans.
    ///
    /// The kernel's node is a character device; a FIFO is accepted too (captures and tests replay scans through
    /// one). A regular file or a directory would only fail later in `epoll_ctl(2)` with `EPERM`, a message that
    /// names neither the path nor the problem, so they are refused here.
    ///
    /// - Throws: ``SensorError/wrongFileType(path:found:expected:)`` or the mapped error of `open` or `fstat`.
    static func openNode(_ path: String) throws(SensorError) -> FileDescriptor {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw SensorError.from(Errno.current, call: "open", path: path) }
        let node = FileDescriptor(descriptor)
        let kind: FileKind
        do {
            kind = try FileKind.of(descriptor: node.rawValue)
        } catch {
            node.close()
            throw SensorError.from(error, call: "fstat", path: path)
        }
        guard kind == .characterDevice || kind == .fifo else {
            node.close()
            throw SensorError.wrongFileType(path: path, found: "\(kind)", expected: "an IIO character device")
        }
        return node
    }

    /// Reads what the device node holds, decodes the whole scans and keeps a partial one for the next read.
    ///
    /// The read happens outside the lock: this runs on the loop thread, and ``stop()`` cancels the registration
    /// (which waits for a running call of this handler) before it closes the node.
    private func readAvailable() {
        let reading = state.withLock { state in state.map { ($0.node, max(4096, $0.layout.scanBytes * 16)) } }
        guard let (node, chunkSize) = reading else { return }
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        let count = chunk.withUnsafeMutableBytes { read(node.rawValue, $0.baseAddress, $0.count) }
        let readError = count < 0 ? Errno.current : nil
        let outcome: ReadOutcome = state.withLock { state in
            guard var running = state, running.node === node else { return .nothing }
            defer { state = running }
            if let errno = readError {
                if errno == .wouldBlock || errno == .interrupted { return .nothing }
                return .failed(SensorError.from(errno, call: "read", path: device.deviceNodePath))
            }
            if count == 0 {
                guard running.pending.isEmpty else {
                    return .failed(
                        .malformedMessage(
                            source: device.deviceNodePath,
                            reason: "truncated scan: \(running.pending.count) bytes left, a scan is "
                                + "\(running.layout.scanBytes)"))
                }
                return .failed(.vanished(path: device.deviceNodePath))
            }
            running.pending += chunk[0..<count]
            let whole = running.pending.count / running.layout.scanBytes * running.layout.scanBytes
            guard whole > 0, let scans = try? running.layout.decodeScans(running.pending[0..<whole]) else {
                return .nothing
            }
            running.pending.removeFirst(whole)
            return .scans(scans, running.calibrations)
        }
        switch outcome {
        case .nothing:
            return
        case .failed(let error):
            stop()
            handler(.failed(error))
        case .scans(let scans, let calibrations):
            for scan in scans {
                let values: [Double]
                do throws(SensorError) {
                    values = try channels.values(in: scan, calibrations: calibrations, node: device.deviceNodePath)
                } catch {
                    handler(.error(error))
                    continue
                }
                let sample = channels.sample(values: values, timestamp: scan.timestamp ?? IIOSamplerSupport.now())
                handler(.sample(sample))
            }
        }
    }
}
