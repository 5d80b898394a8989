import CLinuxSupport
import Dispatch
import Vigil

/// Checks HTTP basic authentication (RFC 7617) against bcrypt hashes, as node_exporter's `basic_auth_users` does.
///
/// bcrypt is slow on purpose (about 50 ms at cost 10), so it never runs on the event loop: a check that needs it
/// runs on one worker thread and reports back. A scraper sends the same credentials each time, so verdicts are
/// cached (a bounded number, success and failure alike); at most ``maximumPending`` checks wait at once, so a
/// client that tries password after password cannot queue unbounded work, and gets `503` beyond that. A user that
/// does not exist costs a bcrypt too, so the time taken does not tell which users exist.
package final class BasicAuthenticator: Sendable {
    /// The outcome of a check.
    package enum Verdict: Sendable, Equatable {
        case allowed
        case refused
        /// Too many checks wait already.
        case busy
    }

    package static let maximumPending = 8
    package static let cacheSize = 64
    /// A well-formed cost-10 hash that no password is known to match, checked for users that do not exist.
    private static let unknownUserHash = "$2b$10$qLL1QE7IghicPyw7y/vz4uG3b6.1gan7MU3htVqJ1bMSWJfTtJf6i"

    private struct State {
        /// Cached verdicts by user and password, oldest first.
        var cache: [(key: [UInt8], allowed: Bool)] = []
        var pending = 0
    }

    private let users: [String: String]
    private let state = FutexMutex(State())
    private let worker: DispatchQueue

    /// An authenticator of `users` (name to bcrypt hash) whose checks run on `worker`, a serial queue of its own by
    /// default (a test passes one it holds suspended).
    package init(
        users: [String: String], worker: DispatchQueue = DispatchQueue(label: "vigil.metrics-server.basic-auth")
    ) {
        self.users = users
        self.worker = worker
    }

    /// Checks an `Authorization` header: the verdict now when it is known (no or malformed credentials, a cached
    /// answer, too many pending), else nil, and `completion` gets it later on the worker thread.
    package func check(_ authorization: String?, completion: @escaping @Sendable (Verdict) -> Void) -> Verdict? {
        guard let (user, password) = authorization.flatMap(Self.credentials) else { return .refused }
        let key = Array(user.utf8) + [0] + password
        let immediate = state.withLock { state -> Verdict? in
            if let cached = state.cache.first(where: { $0.key == key }) { return cached.allowed ? .allowed : .refused }
            guard state.pending < Self.maximumPending else { return .busy }
            state.pending += 1
            return nil
        }
        if let immediate { return immediate }
        let hash = users[user]
        worker.async { [self] in
            let matches = password.withUnsafeBufferPointer { bytes in
                // The password as a C string; one with a NUL byte in it cannot be a user's.
                (bytes.contains(0) ? nil : Array(bytes) + [0]).map { terminated in
                    terminated.withUnsafeBufferPointer { pointer in
                        pointer.withMemoryRebound(to: CChar.self) {
                            vigil_crypt_matches($0.baseAddress, hash ?? Self.unknownUserHash) == 1
                        }
                    }
                } ?? false
            }
            let allowed = matches && hash != nil
            state.withLock { state in
                state.pending -= 1
                state.cache.removeAll { $0.key == key }
                state.cache.append((key, allowed))
                if state.cache.count > Self.cacheSize { state.cache.removeFirst() }
            }
            completion(allowed ? .allowed : .refused)
        }
        return nil
    }

    /// The user and password of a `Basic` header value; nil when it is not one.
    package static func credentials(_ value: String) -> (String, [UInt8])? {
        let tokens = value.split { $0 == " " || $0 == "\t" }
        guard tokens.count == 2, tokens[0].lowercased() == "basic", let decoded = Base64.decode(tokens[1]),
            let colon = decoded.firstIndex(of: UInt8(ascii: ":")),
            let user = String(validating: decoded[..<colon], as: UTF8.self)
        else { return nil }
        return (user, Array(decoded[(colon + 1)...]))
    }
}

/// Standard base64 (RFC 4648 §4) decoding, padding required as RFC 7617's credentials have it.
package enum Base64 {
    package static func decode(_ text: Substring) -> [UInt8]? {
        let bytes = Array(text.utf8)
        guard bytes.count % 4 == 0 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count / 4 * 3)
        for start in stride(from: 0, to: bytes.count, by: 4) {
            let group = bytes[start..<(start + 4)]
            let padding = group.reversed().prefix { $0 == UInt8(ascii: "=") }.count
            guard padding <= 2, padding == 0 || start + 4 == bytes.count else { return nil }
            var value: UInt32 = 0
            for byte in group.prefix(4 - padding) {
                guard let digit = Self.value(of: byte) else { return nil }
                value = value << 6 | UInt32(digit)
            }
            value <<= 6 * UInt32(padding)
            let decoded = [UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
            output += decoded.prefix(3 - padding)
        }
        return output
    }

    private static func value(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
