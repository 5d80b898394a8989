import CLinuxSupport
import Dispatch
import Glibc
import Vigil

/// Resolves host names off the event loop: one thread of its own runs `getaddrinfo(3)` for each request in turn and
/// hands the answer back with the request's generation, so the caller can drop an answer that a newer request made
/// stale.
///
/// The thread starts with the first request and ends after ``close()`` (once a running `getaddrinfo(3)` returns);
/// answers after the close are not delivered. In another network namespace, the thread joins it first, so the
/// resolver's queries leave from there.
package final class HostResolver: Sendable {
    /// One name to resolve.
    struct Request: Hashable, Sendable {
        /// The caller's generation of this name's resolution.
        var generation: UInt64
        /// Which of the caller's names it is.
        var index: Int
        /// The name.
        var host: String
    }

    /// What resolving gave.
    package enum Outcome: Hashable, Sendable {
        /// The addresses, in the resolver's order, without repeats.
        case addresses([IPAddress])
        /// The resolver's reason (`gai_strerror(3)`).
        case failed(String)
    }

    /// A way to resolve a name: `getaddrinfo(3)`, or a test's stand-in.
    package typealias Lookup = @Sendable (String) -> Outcome

    private struct State {
        var queue: [Request] = []
        var closed = false
        var started = false
    }

    /// The most addresses kept of one name.
    static let addressLimit = 8

    private let state = FutexMutex(State())
    private let ready = DispatchSemaphore(value: 0)
    private let namespace: String?
    private let lookup: Lookup
    private let deliver: @Sendable (Request, Outcome) -> Void

    /// - Parameters:
    ///   - namespace: A network namespace path the thread joins first, or nil.
    ///   - lookup: How a name is resolved; `getaddrinfo(3)` by default.
    ///   - deliver: Called on the resolver's thread with each answer, never under a lock.
    init(
        namespace: String?, lookup: @escaping Lookup = HostResolver.getAddresses,
        deliver: @escaping @Sendable (Request, Outcome) -> Void
    ) {
        self.namespace = namespace
        self.lookup = lookup
        self.deliver = deliver
    }

    /// Queues a request; a queued request for the same index is replaced.
    ///
    /// - Throws: ``SensorError`` when the thread cannot be started.
    func submit(_ request: Request) throws(SensorError) {
        let start = state.withLock { state -> Bool? in
            guard !state.closed else { return nil }
            state.queue.removeAll { $0.index == request.index }
            state.queue.append(request)
            defer { state.started = true }
            return !state.started
        }
        guard let start else { return }
        if start { try startThread() }
        ready.signal()
    }

    /// Stops delivering; the thread ends once a running lookup returns.
    func close() {
        state.withLock { state in
            state.closed = true
            state.queue = []
        }
        ready.signal()
    }

    private func startThread() throws(SensorError) {
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<HostResolver>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, context)
        guard created == 0 else {
            Unmanaged<HostResolver>.fromOpaque(context).release()
            state.withLock { $0.started = false }
            throw SensorError.from(Errno(rawValue: created), call: "pthread_create", path: "reach resolver")
        }
        pthread_detach(thread)
    }

    private func run() {
        _ = vigil_set_thread_name("vigil-resolver")
        var joinFailure: String?
        if let namespace {
            let fd = open(namespace, O_RDONLY | O_CLOEXEC)
            if fd < 0 || vigil_setns_network(fd) != 0 {
                joinFailure = "cannot join the network namespace \(namespace): \(Errno.current)"
            }
            if fd >= 0 { _ = Glibc.close(fd) }
        }
        while true {
            ready.wait()
            let next = state.withLock { state -> Request?? in
                guard !state.closed else { return .some(nil) }
                return state.queue.isEmpty ? nil : state.queue.removeFirst()
            }
            guard let next else { continue }
            guard let request = next else { return }
            let outcome = joinFailure.map(Outcome.failed) ?? lookup(request.host)
            guard !state.withLock({ $0.closed }) else { return }
            deliver(request, outcome)
            // More may be queued than signals left (a replaced request): look again.
            if state.withLock({ !$0.queue.isEmpty }) { ready.signal() }
        }
    }

    /// Resolves `host` with `getaddrinfo(3)` (stream sockets, any family).
    package static func getAddresses(_ host: String) -> Outcome {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0 else {
            let reason = status == EAI_SYSTEM ? "\(Errno.current)" : String(cString: gai_strerror(status))
            return .failed(reason)
        }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var entry = list
        while let current = entry, addresses.count < addressLimit {
            if let address = current.pointee.ai_addr.flatMap(IPAddress.init(socketAddress:)),
                !addresses.contains(address)
            {
                addresses.append(address)
            }
            entry = current.pointee.ai_next
        }
        return addresses.isEmpty ? .failed("no address") : .addresses(addresses)
    }
}

extension IPAddress {
    /// The address of a `sockaddr_in` or `sockaddr_in6`; nil for another family.
    init?(socketAddress: UnsafeMutablePointer<sockaddr>) {
        switch Int32(socketAddress.pointee.sa_family) {
        case AF_INET:
            let bytes = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin_addr) { Array($0) }
            }
            self.init(family: .ipv4, bytes: bytes)
        case AF_INET6:
            let bytes = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
            }
            self.init(family: .ipv6, bytes: bytes)
        default:
            return nil
        }
    }
}
