import Dispatch
import Glibc
import Synchronization
import VigilMQTT

/// MQTT publish throughput: `MQTTPublisher.publish` of 200,000 QoS 0 messages (a 19-byte topic, a 200-byte JSON-like
/// payload) to an in-process loopback sink that answers CONNECT and reads everything, timed until the sink has
/// every byte.
///
/// Baseline: the same PUBLISH bytes, encoded beforehand, written with blocking `send(2)` calls of one packet each to
/// the same kind of sink: what the kernel's loopback TCP costs for those bytes with no MQTT client at all. The ratio
/// is the price of the client (encoding, its lock, its buffer, epoll) over raw TCP writes.
func runMQTTThroughput(_ options: Options, _ report: Report) {
    let scenario = "mqtt.publish.throughput"
    guard options.includes(scenario) else { return }
    let count = options.scaled(200_000)
    let message = MQTTMessage(
        topic: "vigil/bench/memory", payload: Array(repeating: UInt8(ascii: "x"), count: 200), retain: false)
    guard let packet = try? MQTTPacketEncoder.publish(message, packetID: nil) else { return }
    let roundBytes = packet.count * count

    guard let rawSink = LoopbackSink(answersConnect: false), let fd = rawSink.connectClient() else {
        print("\(scenario): cannot open a loopback socket")
        return
    }
    var rawExpected = 0
    let raw = sampleTimed(rounds: options.rounds, operations: count) {
        rawExpected += roundBytes
        let start = now()
        for _ in 0..<count {
            var offset = 0
            while offset < packet.count {
                let sent = packet[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard sent > 0 else { return now() - start }
                offset += sent
            }
        }
        rawSink.waitForTotal(rawExpected)
        return now() - start
    }
    close(fd)
    rawSink.stop()

    guard let sink = LoopbackSink(answersConnect: true) else { return }
    var configuration = MQTTPublisher.Configuration(host: "127.0.0.1", port: sink.port, clientID: "bench")
    configuration.eventQueueLimit = count
    guard let publisher = try? MQTTPublisher(configuration) else { return }
    publisher.start()
    let connected = DispatchTime.now() + .seconds(10)
    while !publisher.statistics.isConnected && DispatchTime.now() < connected { usleep(1000) }
    var expected = sink.total
    let vigil = sampleTimed(rounds: options.rounds, operations: count) {
        expected += roundBytes
        let start = now()
        for _ in 0..<count { try? publisher.publish(message) }
        sink.waitForTotal(expected)
        return now() - start
    }
    let dropped = publisher.statistics.dropped
    publisher.stop()
    sink.stop()
    let megabytes = { (samples: Samples) in Double(packet.count) / samples.median * 1000 }
    report.add(
        scenario, "QoS 0, \(packet.count) B", "raw loopback TCP send", unit: "ns/message", raw, baseline: raw,
        note: "\(format(megabytes(raw))) MB/s")
    report.add(
        scenario, "QoS 0, \(packet.count) B", "MQTTPublisher", unit: "ns/message", vigil, baseline: raw,
        note: "\(format(megabytes(vigil))) MB/s; \(dropped) dropped")
}

/// A loopback listener that accepts one connection at a time and reads everything, counting bytes; as an MQTT broker
/// stand-in it answers the first bytes of each connection (CONNECT) with CONNACK.
private final class LoopbackSink: Sendable {
    let port: UInt16
    private let listener: Int32
    private let answersConnect: Bool
    private let received = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)

    init?(answersConnect: Bool) {
        self.answersConnect = answersConnect
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(listener, address, length) == 0 && listen(listener, 4) == 0
                    && getsockname(listener, address, &length) == 0
            }
        }
        guard listener >= 0, bound else { return nil }
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
        ThreadGroup(1) { [self] _ in serve() }.detach()
    }

    /// Bytes read so far, over every connection.
    var total: Int { received.load(ordering: .acquiring) }

    /// A blocking client socket connected to the sink.
    func connectClient() -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, 4)
        return connected ? fd : nil
    }

    /// Waits, polling every 20 µs, until `bytes` have been read (at most 60 s).
    func waitForTotal(_ bytes: Int) {
        let deadline = now() + 60_000_000_000
        while total < bytes && now() < deadline { usleep(20) }
    }

    func stop() {
        stopped.store(true, ordering: .releasing)
        shutdown(listener, Int32(SHUT_RDWR))
        done.wait()
        close(listener)
    }

    private func serve() {
        defer { done.signal() }
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        while !stopped.load(ordering: .acquiring) {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            var answered = !answersConnect
            while !stopped.load(ordering: .acquiring) {
                var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 50) != 0 else { continue }
                let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { break }
                if !answered {
                    answered = true
                    let connack: [UInt8] = [0x20, 0x02, 0x00, 0x00]
                    _ = connack.withUnsafeBytes { send(connection, $0.baseAddress, 4, Int32(MSG_NOSIGNAL)) }
                } else {
                    received.add(count, ordering: .releasing)
                }
            }
            close(connection)
        }
    }
}
