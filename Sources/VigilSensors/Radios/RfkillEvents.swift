import Glibc
import Vigil

/// The `/dev/rfkill` descriptor a running ``RadioMonitor`` follows, its ``RfkillStream``, and why it is not followed.
///
/// Only the loop thread reads the descriptor (its registration's handler); it is closed only after its registration
/// is cancelled, which waits for a running handler, so no read ever meets a closed descriptor. Decisions are taken
/// under the lock and every system call runs after it. Nothing is ever written to the device.
final class RfkillEvents: Sendable {
    private struct Followed {
        let descriptor: FileDescriptor
        let registration: EventLoop.Registration
        var stream: RfkillStream
    }

    private struct State {
        var followed: Followed?
        var problem: String?
    }

    /// Reads per wake before the loop serves others: twice the kernel's queue, so a wake drains it whole. A wake that
    /// reaches it (events arriving as fast as they are read) ends its drain there, re-reading sysfs when the count says
    /// events may have been lost; the rest is read on the next wakes (the watch is level-triggered).
    static let readsPerWake = 2 * RfkillStream.kernelQueueLimit

    /// The event device's path, `<devRoot>/rfkill`.
    let path: String
    private let access: RfkillAccess
    private let eventLoop: EventLoop
    private let state = FutexMutex(State())
    /// Receives what each wake's reads decided, on the loop thread; set once by the monitor.
    let onActions = SharedValue<(@Sendable ([RfkillStream.Action]) -> Void)?>(nil)

    init(path: String, access: RfkillAccess, eventLoop: EventLoop) {
        self.path = path
        self.access = access
        self.eventLoop = eventLoop
    }

    deinit { close() }

    /// The followed device's path and why it is not followed, for the readings.
    var status: (device: String?, problem: String?) {
        state.withLock { state in (state.followed == nil ? nil : path, state.problem) }
    }

    /// Opens the device, asks for 9-byte events (keeping 8-byte ones when the kernel refuses) and watches it; a
    /// failure is kept as the problem the readings show.
    func open() {
        let descriptor: FileDescriptor
        do {
            descriptor = try access.open(path)
        } catch .permissionDenied(let path) {
            return fail(
                "\(path): \(Evdev.permissionAdvice(for: path)); sysfs and uevents still report the switches")
        } catch {
            return fail("\(error); sysfs and uevents still report the switches")
        }
        let size =
            access.requestEventSize(descriptor, RfkillEvent.extendedSize)
            ? RfkillEvent.extendedSize : RfkillEvent.minimumSize
        let registration: EventLoop.Registration
        do {
            registration = try eventLoop.register(fileDescriptor: descriptor.rawValue, interest: .readable) {
                [weak self] _ in self?.readable(descriptor)
            }
        } catch {
            descriptor.close()
            return fail("\(error)")
        }
        let replaced = state.withLock { state -> Followed? in
            defer {
                state.followed = Followed(
                    descriptor: descriptor, registration: registration, stream: RfkillStream(eventSize: size))
                state.problem = nil
            }
            return state.followed
        }
        if let replaced { Self.close(replaced) }
    }

    /// Stops following the device: cancels the registration, then closes it.
    func close() {
        let closing = state.withLock { state -> Followed? in
            defer {
                state.followed = nil
                state.problem = nil
            }
            return state.followed
        }
        if let closing { Self.close(closing) }
    }

    private func fail(_ problem: String) {
        state.withLock { $0.problem = problem }
    }

    private static func close(_ followed: Followed) {
        followed.registration.cancel()
        followed.descriptor.close()
    }

    /// Reads what the device holds (on the loop thread), one event per read, and hands the actions on.
    private func readable(_ descriptor: FileDescriptor) {
        guard var stream = state.withLock({ $0.followed?.descriptor === descriptor ? $0.followed?.stream : nil })
        else { return }
        var actions: [RfkillStream.Action] = []
        var ended: String?
        var buffer = [UInt8](repeating: 0, count: stream.eventSize)
        var reads = 0
        while reads < Self.readsPerWake {
            let count = buffer.withUnsafeMutableBytes { read(descriptor.rawValue, $0.baseAddress, $0.count) }
            if count < 0 {
                let errno = Errno.current
                if errno == .interrupted { continue }
                if errno == .wouldBlock {
                    actions.append(stream.drained())
                } else {
                    ended = "\(SensorError.from(errno, call: "read", path: path))"
                }
                break
            }
            if count == 0 {
                ended = "\(path): the device ended (end of file)"
                break
            }
            reads += 1
            actions.append(stream.consume(buffer[0..<count]))
        }
        if reads == Self.readsPerWake { actions.append(stream.drained()) }
        let outcome = state.withLock { state -> (followed: Bool, ending: Followed?) in
            guard var followed = state.followed, followed.descriptor === descriptor else { return (false, nil) }
            guard let ended else {
                followed.stream = stream
                state.followed = followed
                return (true, nil)
            }
            state.followed = nil
            state.problem = ended + "; sysfs and uevents still report the switches"
            return (true, followed)
        }
        guard outcome.followed else { return }
        if let ending = outcome.ending {
            // Cancelling from inside the handler is allowed, and no read follows: the descriptor may close now.
            Self.close(ending)
            actions.append(.resynchronize(ended ?? ""))
        }
        let relevant = actions.filter { $0 != .none }
        if !relevant.isEmpty { onActions.value?(relevant) }
    }
}
