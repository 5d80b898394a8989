import Foundation
import Glibc
import Testing
import Vigil

/// A real `mosquitto` broker on a free loopback port, configured in a temporary folder the test owns (anonymous,
/// no persistence), stopped when released.
package final class Mosquitto: Sendable {
    package static let broker = ChildProcess.find("/usr/sbin/mosquitto", "/usr/bin/mosquitto")
    package static let subscriber = ChildProcess.find("/usr/bin/mosquitto_sub")
    /// Why the real-broker tests cannot run here, or nil when they can.
    package static let missing: String? =
        broker == nil || subscriber == nil
        ? "mosquitto and mosquitto_sub are not installed (.ci/setup installs them)" : nil

    package let port: UInt16
    private let directory: TemporaryDirectory
    /// The folder holding the configuration, removed when the broker is released.
    package var folder: String { directory.path }
    private let process = FutexMutex<ChildProcess?>(nil)
    /// What `mosquitto_sub` needs to reach this broker over TLS, when it listens with TLS.
    private let subscriberTLS: [String]

    /// Writes the configuration and starts the broker; waits until it accepts connections.
    ///
    /// A port found free can be taken before the broker binds it (by another test's listener, or as the local port
    /// of any outgoing connection), so a broker that finds its port in use is started again on a new one.
    ///
    /// - Parameters:
    ///   - users: When not empty, the only clients it accepts: user names and passwords, hashed into a password file
    ///     by `mosquitto_passwd`.
    ///   - tls: Certificates to listen with TLS only (the server certificate names `localhost` and `127.0.0.1`).
    ///   - requiresClientCertificate: With `tls`, accept only clients presenting a certificate its CA signed.
    package init(
        users: [String: String] = [:], tls: TestCertificates? = nil, requiresClientCertificate: Bool = false
    ) async throws {
        let directory = TemporaryDirectory("vigil-mqtt")
        let folder = directory.path
        var access = "allow_anonymous true\n"
        if !users.isEmpty {
            let hasher = try #require(ChildProcess.installed("mosquitto_passwd"), "mosquitto_passwd (Debian mosquitto)")
            for (user, password) in users {
                let create = FileManager.default.fileExists(atPath: folder + "/passwords") ? [] : ["-c"]
                let hashing = try ChildProcess(hasher, create + ["-b", folder + "/passwords", user, password])
                #expect(await hashing.waitForExit())
                try #require(hashing.exitStatus == 0, "mosquitto_passwd: \(hashing.standardError)")
            }
            // Run as root, mosquitto reads the file after it became the mosquitto user: it must be able to.
            chmod(folder, 0o755)
            chmod(folder + "/passwords", 0o644)
            access = "allow_anonymous false\npassword_file \(folder)/passwords\n"
        }
        if let tls {
            access += """
                cafile \(tls.caFile)
                certfile \(tls.serverCertificateFile)
                keyfile \(tls.serverKeyFile)
                require_certificate \(requiresClientCertificate)

                """
        }
        var launched: (port: UInt16, broker: ChildProcess)?
        for _ in 0..<5 where launched == nil {
            let candidate = try freeLoopbackPort()
            let configuration = "listener \(candidate) 127.0.0.1\n" + access + "persistence false\n"
            try configuration.write(toFile: folder + "/mosquitto.conf", atomically: true, encoding: .utf8)
            let broker = try await Self.launch(folder: folder, port: candidate)
            if broker.isRunning { launched = (candidate, broker) }
            try #require(
                broker.isRunning || broker.standardError.contains("Address already in use"),
                "mosquitto did not start: \(broker.standardError)")
        }
        let (port, broker) = try #require(launched, "mosquitto found every port it was given in use")
        self.port = port
        self.directory = directory
        var subscriberTLS = tls.map { ["--cafile", $0.caFile] } ?? []
        if let tls, requiresClientCertificate {
            subscriberTLS += ["--cert", tls.clientCertificateFile, "--key", tls.clientKeyFile]
        }
        self.subscriberTLS = subscriberTLS
        process.withLock { $0 = broker }
    }

    deinit {
        process.withLock { $0 = nil }
    }

    /// Starts the broker again on the same port.
    package func start() async throws {
        let broker = try await Self.launch(folder: folder, port: port)
        process.withLock { $0 = broker }
        try #require(broker.isRunning, "mosquitto did not start: \(broker.standardError)")
    }

    /// Starts `mosquitto` with the configuration in `folder`; returns once it accepts connections on `port` or has
    /// exited.
    private static func launch(folder: String, port: UInt16) async throws -> ChildProcess {
        let broker = try ChildProcess(try #require(Self.broker), ["-c", folder + "/mosquitto.conf"])
        _ = await eventually(within: 15) { canConnect(port: port) || !broker.isRunning }
        if !broker.isRunning { _ = await broker.waitForExit() }
        return broker
    }

    /// Stops the broker (SIGTERM) and waits until it has exited.
    package func stop() async {
        let broker = process.withLock { $0 }
        if let broker, await broker.stop(reportingAHang: false) == nil { await broker.stop(with: SIGKILL) }
        process.withLock { $0 = nil }
    }

    /// `mosquitto_sub -v` on `topic`, printing `TOPIC PAYLOAD` lines; as `user` when the broker has users.
    package func subscribe(_ topic: String, qos: Int = 0, user: (name: String, password: String)? = nil) throws
        -> ChildProcess
    {
        let credentials = user.map { ["-u", $0.name, "-P", $0.password] } ?? []
        return try ChildProcess(
            try #require(Self.subscriber),
            ["-h", "127.0.0.1", "-p", "\(port)", "-v", "-q", "\(qos)", "-t", topic] + subscriberTLS + credentials)
    }

    /// The JSON objects a ``subscribe(_:qos:user:)`` subscriber printed for `topic` so far, in order; a payload
    /// that is not a JSON object is left out.
    package static func objects(_ subscriber: ChildProcess, topic: String) -> [[String: Any]] {
        subscriber.standardOutput.split(separator: "\n").filter { $0.hasPrefix(topic + " ") }.compactMap { line in
            line.split(separator: " ", maxSplits: 1).last.flatMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }
    }
}

/// A loopback port nobody listens on now (bound to port 0, then released).
package func freeLoopbackPort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    try #require(fd >= 0)
    defer { close(fd) }
    var address = loopback(port: 0)
    let bound = withUnsafePointer(to: &address) {
        bind(fd, $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { $0 }, 16)
    }
    try #require(bound == 0)
    return localPort(of: fd)
}

/// The loopback port socket `fd` is bound to.
package func localPort(of fd: Int32) -> UInt16 {
    var address = sockaddr_in()
    var length = socklen_t(16)
    _ = withUnsafeMutablePointer(to: &address) {
        getsockname(fd, $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { $0 }, &length)
    }
    return UInt16(bigEndian: address.sin_port)
}

/// `127.0.0.1:port` as a `sockaddr_in`.
package func loopback(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    return address
}

/// Whether a TCP connect to `127.0.0.1:port` succeeds now.
package func canConnect(port: UInt16) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = loopback(port: port)
    return withUnsafePointer(to: &address) {
        connect(fd, $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { $0 }, 16)
    } == 0
}
