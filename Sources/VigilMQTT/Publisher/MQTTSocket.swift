import Glibc
import VigilSensors

/// Thin wrappers over the socket calls the publisher makes, under their C names; every socket is non-blocking.
enum MQTTSocket {
    /// One address `getaddrinfo(3)` returned, as the bytes `connect(2)` takes.
    struct Address: Sendable, Hashable {
        let family: Int32
        let bytes: [UInt8]
    }

    /// Wraps `getaddrinfo(3)` for a TCP stream to `host`:`port`; blocks, so callers run it off the event loop.
    ///
    /// - Throws: A message a user can act on ("no such host") when the name does not resolve.
    static func resolve(host: String, port: UInt16) throws(MQTTSocketError) -> [Address] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_ADDRCONFIG
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0 else {
            throw MQTTSocketError(message: "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var addresses: [Address] = []
        var entry = list
        while let info = entry?.pointee {
            if let address = info.ai_addr, info.ai_family == AF_INET || info.ai_family == AF_INET6 {
                let bytes = UnsafeRawBufferPointer(start: address, count: Int(info.ai_addrlen))
                addresses.append(Address(family: info.ai_family, bytes: Array(bytes)))
            }
            entry = info.ai_next
        }
        guard !addresses.isEmpty else { throw MQTTSocketError(message: "\(host) has no IPv4 or IPv6 address") }
        return addresses
    }

    /// Wraps `socket(2)` (non-blocking, close-on-exec) and `connect(2)`; returns the descriptor with the connection
    /// in progress (or already made, on loopback).
    static func connect(to address: Address) throws(MQTTSocketError) -> FileDescriptor {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd: FileDescriptor
        do {
            fd = FileDescriptor(try retryingOnInterrupt("socket") { socket(address.family, type, 0) })
        } catch {
            throw MQTTSocketError(call: "socket", errno: error)
        }
        var one: Int32 = 1
        _ = setsockopt(fd.rawValue, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let result = address.bytes.withUnsafeBytes { bytes in
            Glibc.connect(
                fd.rawValue, bytes.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(bytes.count))
        }
        // An interrupted connect goes on in the background, like one in progress (connect(2)).
        if result != 0 && Errno.current.rawValue != EINPROGRESS && Errno.current != .interrupted {
            let error = Errno.current
            fd.close()
            throw MQTTSocketError(call: "connect", errno: error)
        }
        return fd
    }

    /// The outcome of a non-blocking connect (`SO_ERROR`): nil when it succeeded.
    static func pendingError(_ fd: FileDescriptor) -> Errno? {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd.rawValue, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return .current }
        return error == 0 ? nil : Errno(rawValue: error)
    }

    /// Sends as much of `bytes` as the socket takes (see ``FileDescriptor/send(fully:)``), through `tls` when given:
    /// how many bytes went (0 when the send buffer is full), and whether TLS must read before it can write more.
    static func send(_ fd: FileDescriptor, _ tls: TLSSession?, _ bytes: ArraySlice<UInt8>) throws(MQTTSocketError)
        -> (sent: Int, waitsForReadable: Bool)
    {
        if let tls {
            let outcome: TLSSession.Outcome
            do throws(TLSError) {
                outcome = try tls.write(bytes)
            } catch {
                throw MQTTSocketError(message: error.message)
            }
            switch outcome {
            case .bytes(let count): return (count, false)
            case .wantsReadable: return (0, true)
            case .wantsWritable: return (0, false)
            case .closed: throw MQTTSocketError(message: "the broker ended the TLS session")
            }
        }
        do {
            return (try fd.send(fully: bytes), false)
        } catch {
            throw MQTTSocketError(call: "send", errno: error)
        }
    }

    /// ``receive(_:into:)`` through `tls` when given: the byte count, 0 at end of stream, nil when nothing is
    /// pending; and whether TLS must write before it can read more.
    static func receive(_ fd: FileDescriptor, _ tls: TLSSession?, into buffer: inout [UInt8]) throws(MQTTSocketError)
        -> (count: Int?, waitsForWritable: Bool)
    {
        guard let tls else { return (try receive(fd, into: &buffer), false) }
        let result = buffer.withUnsafeMutableBytes { bytes in
            Result { () throws(TLSError) in try tls.read(into: bytes.baseAddress!, count: bytes.count) }
        }
        switch result {
        case .success(.bytes(let count)): return (count, false)
        case .success(.closed): return (0, false)
        case .success(.wantsReadable): return (nil, false)
        case .success(.wantsWritable): return (nil, true)
        case .failure(let error): throw MQTTSocketError(message: error.message)
        }
    }

    /// Wraps `recv(2)` into `buffer`: the byte count, 0 at end of stream, nil when nothing is pending.
    static func receive(_ fd: FileDescriptor, into buffer: inout [UInt8]) throws(MQTTSocketError) -> Int? {
        let raw = fd.rawValue
        do {
            return try retryingOnInterrupt("recv") {
                buffer.withUnsafeMutableBytes { recv(raw, $0.baseAddress, $0.count, 0) }
            }
        } catch .wouldBlock {
            return nil
        } catch {
            throw MQTTSocketError(call: "recv", errno: error)
        }
    }

    /// Ends a connection politely: reads what is pending (so `close(2)` sends FIN, not RST, and data already queued
    /// still goes out), shuts down sending, and closes.
    static func close(_ fd: FileDescriptor) {
        var scratch = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<16 {
            guard let count = try? receive(fd, into: &scratch), count > 0 else { break }
        }
        shutdown(fd.rawValue, Int32(SHUT_WR))
        fd.close()
    }
}

/// A socket call that failed, in words for a log line.
struct MQTTSocketError: Error, CustomStringConvertible {
    let message: String

    init(message: String) { self.message = message }

    init(call: String, errno: Errno) { message = "\(call): \(errno)" }

    var description: String { message }
}
