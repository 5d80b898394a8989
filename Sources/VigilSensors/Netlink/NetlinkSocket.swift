import CLinuxSupport
import Glibc

/// A non-blocking netlink socket bound to multicast groups, optionally created inside another network namespace.
///
/// Wraps `socket(AF_NETLINK, …)`, `bind(2)`, `sendto(2)` and `recvmsg(2)`. The descriptor is owned by a
/// ``FileDescriptor``, so closing is idempotent and thread-safe.
final class NetlinkSocket: Sendable {
    /// What one receive call got.
    typealias Received = NetlinkReceived

    private let descriptor: FileDescriptor
    /// The port the kernel assigned to this socket (`nl_pid` after `bind`); dump replies carry it.
    let port: UInt32
    /// What the socket is for, used in error messages, for example `NETLINK_ROUTE in /var/run/netns/x`.
    let target: String

    var rawValue: Int32 { descriptor.rawValue }

    /// Opens and binds a socket.
    ///
    /// - Parameters:
    ///   - netlinkProtocol: `NETLINK_ROUTE`, `NETLINK_KOBJECT_UEVENT` or `NETLINK_GENERIC`.
    ///   - groups: The multicast group bit mask to join.
    ///   - namespace: A path to a network namespace (`/var/run/netns/NAME`, `/proc/PID/ns/net`), or `nil` for the
    ///     caller's own. The socket is then created on a short-lived thread of its own that joins the namespace, so
    ///     no other thread ever changes namespace; the socket keeps that namespace for its whole life.
    ///   - receiveBufferSize: The receive buffer in bytes; set with `SO_RCVBUFFORCE` (as root), else `SO_RCVBUF`.
    ///   - passCredentials: Whether to turn on `SO_PASSCRED` so each datagram carries its sender's credentials.
    init(
        netlinkProtocol: Int32, groups: UInt32, namespace: String?, receiveBufferSize: Int, passCredentials: Bool
    ) throws(SensorError) {
        let name = Self.name(of: netlinkProtocol)
        target = namespace.map { "\(name) in \($0)" } ?? name
        let raw: Int32
        if let namespace {
            raw = try Self.inNamespace(namespace) { () throws(SensorError) -> Int32 in
                try Self.makeSocket(netlinkProtocol, target: name)
            }
        } else {
            raw = try Self.makeSocket(netlinkProtocol, target: name)
        }
        descriptor = FileDescriptor(raw)
        try Self.setOption(raw, SO_RCVBUFFORCE, Int32(clamping: receiveBufferSize), fallback: SO_RCVBUF, target: target)
        if passCredentials { try Self.setOption(raw, SO_PASSCRED, 1, fallback: nil, target: target) }
        var address = sockaddr_nl()
        address.nl_family = sa_family_t(AF_NETLINK)
        address.nl_groups = groups
        var length = socklen_t(MemoryLayout<sockaddr_nl>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                guard bind(raw, generic, length) == 0 else { return false }
                return getsockname(raw, generic, &length) == 0
            }
        }
        guard bound else { throw SensorError.from(Errno.current, call: "bind", path: target) }
        port = address.nl_pid
    }

    /// Sends one request to the kernel. Wraps `sendto(2)`.
    func send(_ bytes: [UInt8]) throws(SensorError) {
        var kernel = sockaddr_nl()
        kernel.nl_family = sa_family_t(AF_NETLINK)
        let fd = rawValue
        do {
            _ = try retryingOnInterrupt {
                bytes.withUnsafeBytes { buffer in
                    withUnsafePointer(to: &kernel) { pointer in
                        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                            sendto(
                                fd, buffer.baseAddress, buffer.count, 0, generic,
                                socklen_t(MemoryLayout<sockaddr_nl>.size))
                        }
                    }
                }
            }
        } catch {
            throw SensorError.from(error, call: "sendto", path: target)
        }
    }

    /// Receives one datagram into `buffer` without blocking. Wraps `recvmsg(2)`.
    ///
    /// - Throws: ``SensorError`` for failures other than `EAGAIN` and `ENOBUFS`.
    func receive(into buffer: UnsafeMutableRawBufferPointer) throws(SensorError) -> Received {
        var address = sockaddr_nl()
        var control = [UInt8](repeating: 0, count: vigil_cmsg_space(vigil_ucred_size()) + 64)
        var vector = iovec(iov_base: buffer.baseAddress, iov_len: buffer.count)
        let fd = rawValue
        var userID: UInt32?
        var flags: Int32 = 0
        let outcome = withUnsafeMutablePointer(to: &address) { addressPointer in
            withUnsafeMutablePointer(to: &vector) { vectorPointer in
                control.withUnsafeMutableBytes { controlBuffer -> Result<Int, Errno> in
                    var message = msghdr()
                    message.msg_name = UnsafeMutableRawPointer(addressPointer)
                    message.msg_namelen = socklen_t(MemoryLayout<sockaddr_nl>.size)
                    message.msg_iov = vectorPointer
                    message.msg_iovlen = 1
                    message.msg_control = controlBuffer.baseAddress
                    message.msg_controllen = controlBuffer.count
                    let result: Int
                    do throws(Errno) {
                        result = try retryingOnInterrupt("recvmsg") { recvmsg(fd, &message, Int32(MSG_DONTWAIT)) }
                    } catch {
                        return .failure(error)
                    }
                    flags = message.msg_flags
                    var header = vigil_cmsg_firsthdr(&message)
                    while let current = header {
                        if vigil_cmsg_is_credentials(current) != 0 { userID = vigil_cmsg_credentials_uid(current) }
                        header = vigil_cmsg_nxthdr(&message, current)
                    }
                    return .success(result)
                }
            }
        }
        let count: Int
        switch outcome {
        case .success(let received): count = received
        case .failure(.wouldBlock): return .wouldBlock
        case .failure(.noBufferSpace): return .overflow
        case .failure(let errno): throw SensorError.from(errno, call: "recvmsg", path: target)
        }
        let sender = NetlinkSender(port: address.nl_pid, userID: userID)
        return .datagram(count: count, sender: sender, truncated: flags & Int32(MSG_TRUNC) != 0)
    }

    /// Receives one datagram into the start of `buffer` without blocking.
    func receive(into buffer: inout [UInt8]) throws(SensorError) -> Received {
        let received = buffer.withUnsafeMutableBytes { bytes in
            Result { () throws(SensorError) in try receive(into: bytes) }
        }
        return try received.get()
    }

    /// Joins the multicast group `group`, whose number may exceed the 32 of the bind mask (generic netlink's are
    /// given out at run time). Wraps `setsockopt(NETLINK_ADD_MEMBERSHIP)`.
    func joinGroup(_ group: UInt32) throws(SensorError) {
        var value = group
        guard
            setsockopt(rawValue, Self.solNetlink, NETLINK_ADD_MEMBERSHIP, &value, socklen_t(MemoryLayout<UInt32>.size))
                == 0
        else {
            throw SensorError.from(Errno.current, call: "setsockopt(NETLINK_ADD_MEMBERSHIP \(group))", path: target)
        }
    }

    /// Asks the kernel to add its error message to error replies (`NETLINK_EXT_ACK`); a kernel without it is fine.
    func requestExtendedAcknowledgements() {
        var one: Int32 = 1
        _ = setsockopt(rawValue, Self.solNetlink, NETLINK_EXT_ACK, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// `SOL_NETLINK` (`<bits/socket.h>`), which Glibc's module does not export.
    private static let solNetlink: Int32 = 270

    private static func name(of netlinkProtocol: Int32) -> String {
        switch netlinkProtocol {
        case NETLINK_ROUTE: return "NETLINK_ROUTE"
        case NETLINK_GENERIC: return "NETLINK_GENERIC"
        default: return "NETLINK_KOBJECT_UEVENT"
        }
    }

    /// Closes the socket; later calls do nothing.
    func close() { descriptor.close() }

    private static func makeSocket(_ netlinkProtocol: Int32, target: String) throws(SensorError) -> Int32 {
        let type = Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let fd = socket(AF_NETLINK, type, netlinkProtocol)
        guard fd >= 0 else {
            let errno = Errno.current
            if errno == .protocolNotSupported {
                throw SensorError.unsupported(interface: target, reason: "the kernel has no such netlink family")
            }
            throw SensorError.from(errno, call: "socket", path: target)
        }
        return fd
    }

    private static func setOption(_ fd: Int32, _ option: Int32, _ value: Int32, fallback: Int32?, target: String)
        throws(SensorError)
    {
        var value = value
        let size = socklen_t(MemoryLayout<Int32>.size)
        if setsockopt(fd, SOL_SOCKET, option, &value, size) == 0 { return }
        if let fallback, setsockopt(fd, SOL_SOCKET, fallback, &value, size) == 0 { return }
        throw SensorError.from(Errno.current, call: "setsockopt", path: target)
    }

    /// Runs `body` on a new thread that first joins the network namespace at `path`; the thread then ends.
    static func inNamespace(_ path: String, _ body: @escaping () throws(SensorError) -> Int32)
        throws(SensorError) -> Int32
    {
        let task = NamespaceTask(path: path, body: body)
        let context = Unmanaged.passRetained(task).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { context in
                let task = Unmanaged<NamespaceTask>.fromOpaque(context!).takeRetainedValue()
                task.run()
                return nil
            }, context)
        guard created == 0 else {
            Unmanaged<NamespaceTask>.fromOpaque(context).release()
            throw SensorError.from(Errno(rawValue: created), call: "pthread_create", path: path)
        }
        pthread_join(thread, nil)
        return try task.result.get()
    }
}

/// The work of the namespace thread: join the namespace, run the body, keep its result for the joining thread.
///
/// Not `Sendable`: it is handed to exactly one new thread, and the creating thread reads ``result`` only after
/// `pthread_join(3)`, which orders the accesses.
private final class NamespaceTask {
    let path: String
    let body: () throws(SensorError) -> Int32
    var result: Result<Int32, SensorError> = .failure(.unavailable(source: "network namespace", reason: "not run"))

    init(path: String, body: @escaping () throws(SensorError) -> Int32) {
        self.path = path
        self.body = body
    }

    func run() {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            result = .failure(SensorError.from(Errno.current, call: "open", path: path))
            return
        }
        defer { _ = Glibc.close(fd) }
        guard vigil_setns_network(fd) == 0 else {
            let errno = Errno.current
            result = .failure(
                errno == .invalidArgument
                    ? .malformedValue(path: path, text: path, expected: "a network namespace")
                    : SensorError.from(errno, call: "setns", path: path))
            return
        }
        do throws(SensorError) {
            result = .success(try body())
        } catch {
            result = .failure(error)
        }
    }
}
