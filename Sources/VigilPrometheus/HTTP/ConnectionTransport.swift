import Glibc
import VigilSensors

/// The bytes of one client connection, plain or through TLS: what ``ServerConnection`` reads and writes through.
struct ConnectionTransport: Sendable {
    /// What a read or write did.
    enum Transfer: Equatable {
        /// This many bytes moved (0 on a read: the client ended the stream).
        case done(Int)
        /// Nothing moved; the socket must become readable or writable first (TLS may need the other direction
        /// than the call's, during the handshake).
        case notReady(EventLoop.Interest)
        /// The connection failed, for this reason.
        case failed(String)
    }

    let socket: FileDescriptor
    let tls: TLSSession?

    /// Reads up to `count` bytes into the start of `buffer`.
    func receive(into buffer: inout [UInt8], count: Int) -> Transfer {
        if let tls {
            do {
                let outcome = try buffer.withUnsafeMutableBytes { bytes throws(TLSError) in
                    try tls.read(into: bytes.baseAddress!, count: min(count, bytes.count))
                }
                return Self.transfer(outcome)
            } catch {
                return .failed("\(error)")
            }
        }
        let fd = socket.rawValue
        do {
            return .done(
                try retryingOnInterrupt("recv") {
                    buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, min(count, $0.count), 0) }
                })
        } catch .wouldBlock {
            return .notReady(.readable)
        } catch {
            return .failed("read failed: \(error)")
        }
    }

    /// Writes what the socket takes of `bytes`: `.done(0)` or `.notReady` when it takes nothing now.
    func transmit(_ bytes: ArraySlice<UInt8>) -> Transfer {
        if let tls {
            do {
                let outcome = try tls.write(bytes)
                // A client that ended its TLS session takes nothing more: never "try again when writable".
                return outcome == .closed ? .failed("it ended the TLS session") : Self.transfer(outcome)
            } catch {
                return .failed("\(error)")
            }
        }
        do {
            let sent = try socket.send(fully: bytes)
            return sent == 0 ? .notReady(.writable) : .done(sent)
        } catch {
            return .failed("\(error)")
        }
    }

    /// Whether TLS holds decrypted bytes that no readiness of the socket would announce.
    var hasBufferedInput: Bool { tls?.hasBufferedInput ?? false }

    /// Ends the stream: a TLS close_notify first, then the socket.
    func close() {
        tls?.shutdown()
        _ = socket.close()
    }

    private static func transfer(_ outcome: TLSSession.Outcome) -> Transfer {
        switch outcome {
        case .bytes(let count): .done(count)
        case .wantsReadable: .notReady(.readable)
        case .wantsWritable: .notReady(.writable)
        case .closed: .done(0)
        }
    }
}
