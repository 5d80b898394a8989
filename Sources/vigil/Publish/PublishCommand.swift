import Dispatch
import Foundation
import Glibc
import Synchronization
import Vigil
import VigilMQTT
import VigilSensors

/// `vigil publish`: starts the named sources (or every available one) and publishes each reading to an MQTT broker
/// until a signal.
enum PublishCommand {
    /// The sources whose readings are events (not retained): what happened, not what is.
    static let eventSources: Set<String> = ["files", "devices", "clock"]

    /// The most readings of one source waiting to be handed to the publisher (whose outbox has its own bound); a
    /// source that publishes faster than that loses its oldest readings, and standard error says how many.
    static let pendingLimit = 1_000

    /// Runs the command with the parsed command line.
    ///
    /// - Throws: ``ToolError`` for a usage mistake, a password file that cannot be read or a source that cannot
    ///   start.
    /// - Returns: The exit status: 130 after SIGINT, 143 after SIGTERM.
    static func run(_ arguments: Arguments) throws(ToolError) -> Int32 {
        HandledSignals.block(HandledSignals.stop)
        let options = try PublishOptions(arguments)
        let targets = try WatchSelection.targets(arguments, options: try arguments.sourceOptions())
        for id in options.intervals.keys where !targets.contains(where: { $0.id == id }) {
            throw .usage("--interval \(id)=…: \(id) is not among the sources published; see vigil list")
        }
        let host = hostName()
        let prefix = options.prefix ?? "vigil/" + host
        let publisher = try makePublisher(options, prefix: prefix)

        // Logged through a writer that never blocks: a standard error nobody reads must not stall the publisher.
        let logWriter = LogWriter()
        defer { logWriter.flush(until: .now() + .milliseconds(500)) }
        let control = RunControl()
        let signals = control.handleSignals()
        defer { withExtendedLifetime(signals) {} }
        let log = publisher.events.subscribe { event in
            // Refused credentials end the run: the publisher stopped, and retrying cannot help.
            if case .refused = event { return control.finish(1, message: "mqtt: \(event)") }
            logWriter.log("vigil: mqtt: \(event)")
        }
        defer { log.dispose() }

        let queue = DispatchQueue(label: "vigil.publish")
        var running: [(any Source, Subscription)] = []
        defer {
            for (source, subscription) in running {
                source.stopMonitoring()
                subscription.dispose()
            }
            queue.sync {}
            publisher.stop()
        }
        publisher.start()
        for target in targets {
            let id = target.id
            let topic = prefix + "/" + id
            let discovery = options.homeAssistant ? Discovery(host: host, prefix: prefix, source: id) : nil
            let retain = !eventSources.contains(id)
            let source = target.source
            if let interval = options.intervals[id] ?? options.interval {
                // A default interval leaves the sources that do not poll as they are; a named one must poll.
                do {
                    try source.setUpdateInterval(interval)
                } catch  where options.intervals[id] != nil {
                    throw .usage("--interval \(id)=…: \(error)")
                } catch {}
            }
            do {
                // Bounded: a source that publishes faster than the broker takes its messages loses its oldest
                // readings, and says how many, rather than growing memory.
                let subscription = target.readings.subscribe(
                    on: queue, keepingNewest: Self.pendingLimit,
                    onDrop: {
                        logWriter.log("vigil: publish: dropped \($0) readings of \(id): publishing was too slow")
                    }
                ) { reading in
                    let payload = PublishPayload.envelope(source: id, reading: reading)
                    discovery?.announceIfNeeded(payload: payload, publisher: publisher, qos: options.qos)
                    try? publisher.publish(
                        MQTTMessage(topic: topic, payload: payload, qos: options.qos, retain: retain))
                }
                running.append((source, subscription))
                try source.startMonitoring()
            } catch {
                throw ToolError(message: "\(target.key): \(error)", status: 1)
            }
        }
        let names = targets.map(\.key).joined(separator: ", ")
        printError("vigil: publishing \(names) to \(prefix)/… on \(options.host):\(options.port); Ctrl-C to stop")
        let (status, message) = control.wait()
        if let message { printError("vigil: error: \(message)") }
        return status
    }

    private static func makePublisher(_ options: PublishOptions, prefix: String) throws(ToolError) -> MQTTPublisher {
        var configuration = MQTTPublisher.Configuration(
            host: options.host, port: options.port, clientID: clientID(prefix: prefix))
        configuration.keepAlive = options.keepAlive
        // At QoS 1 the broker keeps the session across a reconnect; unacknowledged messages are resent either way.
        configuration.cleanSession = options.qos == .atMostOnce
        configuration.username = options.username
        configuration.password = try options.password()
        configuration.will = MQTTMessage(topic: prefix + "/status", text: "offline", qos: options.qos, retain: true)
        configuration.birth = MQTTMessage(topic: prefix + "/status", text: "online", qos: options.qos, retain: true)
        configuration.tls = options.tls
        do {
            return try MQTTPublisher(configuration)
        } catch .tls(let reason) {
            throw ToolError(message: "TLS: \(reason)", status: 1)
        } catch {
            throw .usage("\(error)")
        }
    }

    /// The client ID: unique per machine and per prefix, from the machine ID (`/etc/machine-id`) rather than the host
    /// name, which two machines may share (they then took each other's session over, again and again). At most 23
    /// characters, the length every broker must accept: `vigil-`, 12 hex digits of the machine ID, 4 of the prefix.
    static func clientID(prefix: String, machineIDPath: String = "/etc/machine-id") -> String {
        var hash: UInt32 = 2_166_136_261  // FNV-1a, enough to tell one machine's prefixes apart
        for byte in prefix.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let hex = String(hash & 0xFFFF, radix: 16)
        let suffix = String(repeating: "0", count: 4 - hex.count) + hex
        let machine =
            (try? String(contentsOfFile: machineIDPath, encoding: .utf8))?.prefix(32).filter(\.isHexDigit) ?? ""
        guard machine.count == 32 else { return "vigil-" + prefix.replacingOccurrences(of: "/", with: "-") }
        return "vigil-" + machine.prefix(12) + suffix
    }

    /// The machine's host name, for the default topic prefix.
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let cleaned = String(name.map { $0 == "/" || $0 == "+" || $0 == "#" ? "_" : $0 })
        return cleaned.isEmpty ? "localhost" : cleaned
    }
}

/// Home Assistant discovery for one source: published once, with the source's first reading that has a value.
private final class Discovery: Sendable {
    let host: String
    let prefix: String
    let source: String
    private let announced = Atomic(false)

    init(host: String, prefix: String, source: String) {
        self.host = host
        self.prefix = prefix
        self.source = source
    }

    func announceIfNeeded(payload: [UInt8], publisher: MQTTPublisher, qos: MQTTQoS) {
        guard !announced.load(ordering: .relaxed), PublishPayload.hasValue(payload),
            let envelope = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any],
            announced.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
        else { return }
        for sensor in HomeAssistantDiscovery.sensors(source: source, envelope: envelope) {
            let config = HomeAssistantDiscovery.config(sensor, host: host, prefix: prefix, source: source)
            try? publisher.publish(MQTTMessage(topic: config.topic, payload: config.payload, qos: qos, retain: true))
        }
    }
}
