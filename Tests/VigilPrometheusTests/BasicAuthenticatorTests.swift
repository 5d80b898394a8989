import Dispatch
import Synchronization
import Testing
import VigilPrometheus
import VigilTestSupport

/// Basic authentication as the exporter toolkit checks it: bcrypt through the system's crypt(3), never on the
/// caller's thread, bounded, cached.
@Suite(.timeLimit(.minutes(5))) struct BasicAuthenticatorTests {
    /// From OpenBSD's bcrypt test vectors (also John the Ripper's): "U*U" at cost 5. Made by another
    /// implementation, so it checks that crypt(3) is called as bcrypt wants, not only that it agrees with itself.
    static let openBSDVector = "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"

    /// Runs one check to its verdict, waiting for the worker thread when the answer is not immediate.
    func verdict(_ authenticator: BasicAuthenticator, _ header: String?) -> BasicAuthenticator.Verdict {
        let done = DispatchSemaphore(value: 0)
        let later = Mutex<BasicAuthenticator.Verdict?>(nil)
        if let now = authenticator.check(
            header,
            completion: { verdict in
                later.withLock { $0 = verdict }
                done.signal()
            })
        {
            return now
        }
        done.wait()
        return later.withLock { $0! }
    }

    static func basic(_ user: String, _ password: String) -> String {
        "Basic " + base64(Array("\(user):\(password)".utf8))
    }

    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var text = ""
        for start in stride(from: 0, to: bytes.count, by: 3) {
            let chunk = Array(bytes[start..<min(start + 3, bytes.count)])
            let value = chunk.enumerated().reduce(0) { $0 | Int($1.element) << (16 - 8 * $1.offset) }
            for index in 0..<4 {
                text.append(index <= chunk.count ? alphabet[(value >> (18 - 6 * index)) & 63] : "=")
            }
        }
        return text
    }

    @Test func acceptsTheRightPasswordOnlyForItsUser() {
        let authenticator = BasicAuthenticator(users: ["alice": Self.openBSDVector, "bob": Self.openBSDVector])
        #expect(verdict(authenticator, Self.basic("alice", "U*U")) == .allowed)
        #expect(verdict(authenticator, Self.basic("bob", "U*U")) == .allowed)
        #expect(verdict(authenticator, Self.basic("alice", "U*U ")) == .refused)
        #expect(verdict(authenticator, Self.basic("alice", "")) == .refused)
        #expect(verdict(authenticator, Self.basic("carol", "U*U")) == .refused)
        // A password with a NUL byte is never a user's (crypt would stop reading at it).
        #expect(verdict(authenticator, "Basic " + Self.base64(Array("alice:U*U".utf8) + [0, 0x78])) == .refused)
    }

    @Test(arguments: [
        nil, "", "Basic", "Bearer abc", "Basic !!!!", "Basic YWxpY2U=", "Basic YWxpY2U6VSpV=",
        "Basic YWxpY2U6VSpV extra",
    ])
    func refusesAMissingOrMalformedHeaderAtOnce(header: String?) {
        let authenticator = BasicAuthenticator(users: ["alice": Self.openBSDVector])
        #expect(authenticator.check(header, completion: { _ in Issue.record("no check should run") }) == .refused)
    }

    @Test func theSchemeIsCaseInsensitive() {
        let authenticator = BasicAuthenticator(users: ["alice": Self.openBSDVector])
        #expect(verdict(authenticator, "bAsIc " + Self.base64(Array("alice:U*U".utf8))) == .allowed)
    }

    /// A scraper sends the same credentials every time: only the first costs a bcrypt, the rest are answered at once.
    @Test func aRepeatedVerdictIsAnsweredFromTheCache() {
        let authenticator = BasicAuthenticator(users: ["alice": Self.openBSDVector])
        #expect(verdict(authenticator, Self.basic("alice", "U*U")) == .allowed)
        #expect(verdict(authenticator, Self.basic("alice", "nope")) == .refused)
        #expect(authenticator.check(Self.basic("alice", "U*U"), completion: { _ in }) == .allowed)
        #expect(authenticator.check(Self.basic("alice", "nope"), completion: { _ in }) == .refused)
    }

    /// Password after password cannot queue unbounded work: past the limit, checks are answered busy at once.
    @Test func checksInFlightAreBounded() {
        // The worker is held until every check has arrived: none can finish early and free its place, as two did
        // under ThreadSanitizer on a loaded machine when the test counted on a cost-10 bcrypt outlasting the loop.
        let worker = DispatchQueue(label: "held")
        worker.suspend()
        let authenticator = BasicAuthenticator(users: ["alice": Self.openBSDVector], worker: worker)
        let finished = DispatchSemaphore(value: 0)
        var busy = 0
        var queued = 0
        for attempt in 0..<(BasicAuthenticator.maximumPending + 4) {
            switch authenticator.check(Self.basic("alice", "guess \(attempt)"), completion: { _ in finished.signal() })
            {
            case nil: queued += 1
            case .busy?: busy += 1
            case let other: Issue.record("unexpected \(String(describing: other))")
            }
        }
        #expect(queued == BasicAuthenticator.maximumPending)
        #expect(busy == 4)
        worker.resume()
        for _ in 0..<queued { finished.wait() }
    }

    @Test func decodesBase64AsRFC4648Says() {
        #expect(Base64.decode("") == [])
        #expect(Base64.decode("Zg==") == Array("f".utf8))
        #expect(Base64.decode("Zm8=") == Array("fo".utf8))
        #expect(Base64.decode("Zm9vYmFy") == Array("foobar".utf8))
        #expect(Base64.decode("+/+/") == [0xFB, 0xFF, 0xBF])
        #expect(Base64.decode("Zg=") == nil)
        #expect(Base64.decode("Z===") == nil)
        #expect(Base64.decode("Zg==Zg==") == nil)
        #expect(Base64.decode("Zm9v-w==") == nil)
    }
}
