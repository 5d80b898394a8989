import CLinuxSupport
import Vigil

/// One TLS connection over a connected, non-blocking socket: the handshake runs inside the first reads and writes.
///
/// `@unchecked Sendable`: it only wraps the C session (`SSL *`), and every call into it holds `lock`, so no two
/// threads are ever inside OpenSSL with it at once; it is freed when released. The socket stays its owner's, who
/// calls ``shutdown()`` before closing it: OpenSSL keeps the descriptor's number, and a read or write after the close
/// would reach whatever the number names next.
package final class TLSSession: @unchecked Sendable {
    /// What a read or write did besides failing.
    package enum Outcome: Equatable, Sendable {
        /// This many bytes were read or written.
        case bytes(Int)
        /// Nothing now; call again when the socket is readable.
        case wantsReadable
        /// Nothing now; call again when the socket is writable.
        case wantsWritable
        /// The peer ended the stream.
        case closed
    }

    private let context: TLSContext
    private let pointer: UnsafeMutableRawPointer
    /// Held by every call into OpenSSL; true once ``shutdown()`` has run.
    private let lock = FutexMutex(false)

    /// A session on `socket` as the server, or as a client that checks the server's certificate names
    /// `serverName` (a DNS name, sent as SNI, or an IP address).
    package init(context: TLSContext, socket: Int32, isServer: Bool, serverName: String? = nil) throws(TLSError) {
        let (pointer, message) = withErrorBuffer { error, size in
            vigil_tls_session(context.pointer, socket, isServer ? 1 : 0, serverName, error, size)
        }
        guard let pointer else { throw TLSError(message) }
        self.context = context
        self.pointer = pointer
    }

    deinit { vigil_tls_session_free(pointer) }

    /// Reads up to `count` decrypted bytes into `buffer`.
    package func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(TLSError) -> Outcome {
        let (result, message) = lock.withLock { ended in
            ended
                ? (Int(vigil_tls_closed.rawValue), "")
                : withErrorBuffer { vigil_tls_read(pointer, buffer, count, $0, $1) }
        }
        return try Self.outcome(result, message)
    }

    /// Writes what it can of `bytes` (a partial write is `.bytes` below the count).
    package func write(_ bytes: ArraySlice<UInt8>) throws(TLSError) -> Outcome {
        let (result, message) = lock.withLock { ended in
            if ended { return (Int(vigil_tls_closed.rawValue), "") }
            return bytes.withUnsafeBytes { buffer in
                withErrorBuffer { vigil_tls_write(pointer, buffer.baseAddress, buffer.count, $0, $1) }
            }
        }
        return try Self.outcome(result, message)
    }

    /// Whether decrypted bytes wait in the session, which waiting for a readable socket would not report.
    package var hasBufferedInput: Bool { lock.withLock { ended in !ended && vigil_tls_pending(pointer) > 0 } }

    /// Sends close_notify without waiting for the peer's, and ends the session: from its return no read or write
    /// touches the socket (they report ``Outcome/closed``), so its owner may close it. A second call does nothing.
    package func shutdown() {
        lock.withLock { ended in
            guard !ended else { return }
            ended = true
            vigil_tls_shutdown(pointer)
        }
    }

    private static func outcome(_ result: Int, _ message: String) throws(TLSError) -> Outcome {
        switch result {
        case 1...: return .bytes(result)
        case Int(vigil_tls_want_read.rawValue): return .wantsReadable
        case Int(vigil_tls_want_write.rawValue): return .wantsWritable
        case Int(vigil_tls_closed.rawValue): return .closed
        default: throw TLSError(message)
        }
    }
}
