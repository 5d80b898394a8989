import Glibc
import Vigil

/// The receiver a running ``LocationMonitor`` holds open, its decoder and its latest fix.
///
/// Only the loop thread reads the open node (its registration's handler); the node is closed only after its
/// registration is cancelled, which waits for a running handler, so no read ever meets a closed descriptor.
/// Decisions are taken under the lock, and every system call runs after it.
final class GNSSLink: Sendable {
    private struct OpenReceiver {
        let device: GNSSDevice
        let descriptor: FileDescriptor
        let registration: EventLoop.Registration
        var decoder: NMEADecoder
        var latest: LocationFix
    }

    private struct State {
        var generation: UInt64?
        var open: OpenReceiver?
    }

    /// The most bytes taken from the node in one turn of the loop, so that a flood cannot hold the loop.
    static let readSize = 4096

    private let location: GNSSDevice.Location
    private let eventLoop: EventLoop
    private let state = FutexMutex(State())
    /// Publishes a fix, or why the receiver went away; set once by the monitor.
    let onEvent = SharedValue<(@Sendable (Result<LocationFix, SensorError>) -> Void)?>(nil)

    init(location: GNSSDevice.Location, eventLoop: EventLoop) {
        self.location = location
        self.eventLoop = eventLoop
    }

    deinit { end() }

    /// Begins `generation`'s run.
    func begin(_ generation: UInt64) {
        state.withLock { $0.generation = generation }
    }

    /// Ends the run: cancels the registration, then closes the node.
    func end() {
        let closing = state.withLock { state -> OpenReceiver? in
            state.generation = nil
            defer { state.open = nil }
            return state.open
        }
        if let closing { Self.close(closing) }
    }

    /// Finds the receiver, opens it unless it is open already, and returns its latest fix (`waiting` when just
    /// opened).
    ///
    /// - Throws: A ``SensorError`` when there is no receiver, it cannot be opened or watched, or the run is over;
    ///   an open receiver that is gone is closed first.
    func check() throws(SensorError) -> LocationFix {
        guard let generation = state.withLock({ $0.generation }) else { throw Self.stopped }
        let device: GNSSDevice
        do throws(SensorError) {
            device = try GNSSDevice.find(location)
            guard SysfsFile.exists(device.path) else { throw SensorError.notFound(path: device.path.displayText) }
        } catch {
            closeOpen()
            throw error
        }
        let current = state.withLock { state in state.open.flatMap { $0.device == device ? $0.latest : nil } }
        if let current { return current }
        closeOpen()
        let descriptor = try device.open()
        let registration: EventLoop.Registration
        do {
            registration = try eventLoop.register(fileDescriptor: descriptor.rawValue, interest: .readable) {
                [weak self] _ in self?.readable(descriptor)
            }
        } catch {
            descriptor.close()
            throw error
        }
        let receiver = device.path.displayText
        let opened = OpenReceiver(
            device: device, descriptor: descriptor, registration: registration,
            decoder: NMEADecoder(receiver: receiver, receiverType: device.type),
            latest: LocationFix(receiver: receiver, receiverType: device.type))
        let (installed, replaced) = state.withLock { state -> (Bool, OpenReceiver?) in
            guard state.generation == generation else { return (false, nil) }
            defer { state.open = opened }
            return (true, state.open)
        }
        if let replaced { Self.close(replaced) }
        guard installed else {
            Self.close(opened)
            throw Self.stopped
        }
        return opened.latest
    }

    private static var stopped: SensorError { .unavailable(source: "Location", reason: "the monitor is stopped") }

    private func closeOpen() {
        if let closing = state.withLock({ state in
            defer { state.open = nil }; return state.open
        }) {
            Self.close(closing)
        }
    }

    private static func close(_ receiver: OpenReceiver) {
        receiver.registration.cancel()
        receiver.descriptor.close()
    }

    /// Reads what the node holds (on the loop thread), decodes it and publishes each fix it completes; a read that
    /// fails or meets the end of the file closes the receiver and publishes why.
    private func readable(_ descriptor: FileDescriptor) {
        var buffer = [UInt8](repeating: 0, count: Self.readSize)
        let count = buffer.withUnsafeMutableBytes { read(descriptor.rawValue, $0.baseAddress, $0.count) }
        let errno = count < 0 ? Errno.current : nil
        if let errno, errno == .wouldBlock || errno == .interrupted { return }
        let outcome = state.withLock { state -> Result<[LocationFix], SensorError>? in
            guard var open = state.open, open.descriptor === descriptor else { return nil }
            let path = open.device.path.displayText
            if let errno { return .failure(SensorError.from(errno, call: "read", path: path)) }
            if count == 0 {
                return .failure(.unavailable(source: path, reason: "the receiver went away (end of file)"))
            }
            let fixes = open.decoder.consume(buffer[0..<count])
            if let last = fixes.last { open.latest = last }
            state.open = open
            return .success(fixes)
        }
        switch outcome {
        case nil:
            return
        case .success(let fixes):
            for fix in fixes { onEvent.value?(.success(fix)) }
        case .failure(let error):
            let closing = state.withLock { state -> OpenReceiver? in
                guard let open = state.open, open.descriptor === descriptor else { return nil }
                state.open = nil
                return open
            }
            if let closing { Self.close(closing) }
            onEvent.value?(.failure(error))
        }
    }
}
