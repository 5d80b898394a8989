import Glibc
import Vigil
import VigilSensors

/// A stand-in for the kernel's evdev nodes: opening a node hands the monitor one end of a socket pair whose other end
/// the test writes `struct input_event`s into (whole, in pieces, or not at all), `EVIOCGSW` answers what the test set,
/// and closing the test's end is the device going away.
final class FakeEvdev: Sendable {
    private struct Node {
        var set: [Int] = []
        var ioctlError: Errno?
        var refused = false
        /// The test's end of the open node's socket pair.
        var peer: Int32?
        /// The monitor's end, to find the node from a descriptor.
        var monitorEnd: Int32?
    }

    private let nodes = FutexMutex<[String: Node]>([:])

    init() {}

    deinit {
        for node in nodes.withLock({ Array($0.values) }) {
            if let peer = node.peer { close(peer) }
        }
    }

    /// Makes `path` a node whose switches `set` are on, opened as asked (a refusal or ioctl failure set before is
    /// lifted); an open node stays open.
    func add(_ path: String, set: [Int] = []) {
        nodes.withLock { nodes in
            var node = nodes[path] ?? Node()
            node.set = set
            node.refused = false
            node.ioctlError = nil
            nodes[path] = node
        }
    }

    /// Makes opening `path` fail with `EACCES`.
    func refuse(_ path: String) {
        nodes.withLock { $0[path, default: Node()].refused = true }
    }

    /// Changes what `EVIOCGSW` answers for `path`, as the kernel's state moves on.
    func setState(_ path: String, set: [Int]) {
        nodes.withLock { $0[path]?.set = set }
    }

    /// Makes `EVIOCGSW` on `path` fail with `errno`.
    func failIoctl(_ path: String, with errno: Errno) {
        nodes.withLock { $0[path]?.ioctlError = errno }
    }

    /// Whether the monitor holds `path` open: the test's end is there and does not see the other end closed.
    func isOpen(_ path: String) -> Bool {
        guard let peer = nodes.withLock({ $0[path]?.peer }) else { return false }
        var byte: UInt8 = 0
        let peeked = recv(peer, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        return peeked < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
    }

    /// How many bytes written into `path` the monitor has not read yet.
    func unread(_ path: String) -> Int {
        guard let end = nodes.withLock({ $0[path]?.monitorEnd }) else { return 0 }
        var count: Int32 = 0
        guard ioctl(end, UInt(FIONREAD), &count) == 0 else { return 0 }
        return Int(count)
    }

    /// Writes `bytes` into the open node `path`.
    func write(_ path: String, _ bytes: [UInt8]) {
        guard let peer = nodes.withLock({ $0[path]?.peer }) else {
            preconditionFailure("\(path) is not open")
        }
        let written = bytes.withUnsafeBytes { Glibc.write(peer, $0.baseAddress, $0.count) }
        precondition(written == bytes.count, "short write to \(path)")
    }

    /// Writes the events into the open node `path`, back to back.
    func write(_ path: String, events: [InputEvent]) {
        write(path, events.flatMap(\.bytes))
    }

    /// Closes the test's end of `path`: the monitor reads end of file, as from a device that went away.
    func unplug(_ path: String) {
        let peer = nodes.withLock { nodes -> Int32? in
            defer { nodes[path]?.peer = nil }
            return nodes[path]?.peer
        }
        if let peer { close(peer) }
    }

    var access: EvdevAccess {
        EvdevAccess(
            open: { [self] (path) throws(SensorError) in try self.open(path) },
            readSwitches: { [self] (descriptor) throws(Errno) in try self.readSwitches(descriptor) },
            setClock: { _ in .boottime })
    }

    private func open(_ path: String) throws(SensorError) -> FileDescriptor {
        guard let node = nodes.withLock({ $0[path] }) else { throw .notFound(path: path) }
        guard !node.refused else { throw .permissionDenied(path: path) }
        var ends: [Int32] = [-1, -1]
        let made = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0
        precondition(made, "socketpair failed")
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        let old = nodes.withLock { nodes -> Int32? in
            defer {
                nodes[path]?.peer = ends[1]
                nodes[path]?.monitorEnd = ends[0]
            }
            return nodes[path]?.peer
        }
        if let old { close(old) }
        return FileDescriptor(ends[0])
    }

    private func readSwitches(_ descriptor: FileDescriptor) throws(Errno) -> [Int] {
        let fd = descriptor.rawValue
        let node = nodes.withLock { $0.values.first { $0.monitorEnd == fd } }
        guard let node else { throw .noSuchDevice }
        if let error = node.ioctlError { throw error }
        return node.set
    }
}

/// `struct input_event`s as the kernel sends them.
enum Events {
    static func change(_ kind: SwitchKind, _ on: Bool, seconds: Int64 = 0) -> InputEvent {
        InputEvent(seconds: seconds, type: InputEvent.switchEvent, code: UInt16(kind.code), value: on ? 1 : 0)
    }

    static var report: InputEvent { InputEvent(type: InputEvent.synchronization, code: InputEvent.report, value: 0) }
    static var dropped: InputEvent { InputEvent(type: InputEvent.synchronization, code: InputEvent.dropped, value: 0) }

    /// One frame: the changes, then `SYN_REPORT`.
    static func frame(_ changes: (SwitchKind, Bool)...) -> [InputEvent] {
        changes.map { change($0.0, $0.1) } + [report]
    }
}
