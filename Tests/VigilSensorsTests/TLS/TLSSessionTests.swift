import Glibc
import Testing
import VigilSensors
import VigilTestSupport

/// A TLS session keeps its socket's number inside OpenSSL; once ended, it must never use it again, since its owner
/// closes the socket next and the number may name another descriptor a moment later.
@Suite(.timeLimit(.minutes(10))) struct TLSSessionTests {
    /// A connected pair of non-blocking stream sockets: the session's end and its peer.
    static func socketPair() throws -> (session: Int32, peer: Int32) {
        var ends: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        try #require(socketpair(AF_UNIX, type, 0, &ends) == 0, "socketpair: errno \(errno)")
        return (ends[0], ends[1])
    }

    /// What the peer has been sent so far.
    static func pending(at peer: Int32) -> Int {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        return max(0, recv(peer, &buffer, buffer.count, 0))
    }

    @Test func anEndedSessionNeverTouchesItsSocketAgain() throws {
        do {
            try TLSContext.checkAvailable()
        } catch {
            try skip("\(error)", expectedUnderCI: false)
        }
        let context = try TLSContext.client(caFile: nil, certificateFile: nil, keyFile: nil)
        let (socket, peer) = try Self.socketPair()
        defer {
            close(socket)
            close(peer)
        }
        let session = try TLSSession(context: context, socket: socket, isServer: false, serverName: "localhost")
        session.shutdown()
        _ = Self.pending(at: peer)  // whatever the shutdown itself sent
        // Before the fix, the write started the handshake on the socket (a ClientHello reached the peer).
        #expect(try session.write([1, 2, 3][...]) == .closed)
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(try session.read(into: &buffer, count: buffer.count) == .closed)
        #expect(!session.hasBufferedInput)
        #expect(Self.pending(at: peer) == 0, "the ended session wrote to its socket")
        session.shutdown()
        #expect(Self.pending(at: peer) == 0, "a second shutdown wrote again")
    }
}
