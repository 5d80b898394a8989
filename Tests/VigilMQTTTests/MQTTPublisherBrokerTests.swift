import Synchronization
import Testing
import Vigil
import VigilMQTT
import VigilTestSupport

/// The library's ``MQTTPublisher`` against a real `mosquitto`: QoS 1 acknowledgements, observables, restarts.
@Suite(.timeLimit(.minutes(10)), .disabled(if: Mosquitto.missing != nil, "\(Mosquitto.missing ?? "")"))
struct MQTTPublisherBrokerTests {
    private func configuration(_ broker: Mosquitto, _ name: String) -> MQTTPublisher.Configuration {
        var configuration = MQTTPublisher.Configuration(host: "127.0.0.1", port: broker.port, clientID: name)
        configuration.birth = MQTTMessage(topic: "\(name)/status", text: "online", qos: .atLeastOnce, retain: true)
        configuration.will = MQTTMessage(topic: "\(name)/status", text: "offline", qos: .atLeastOnce, retain: true)
        configuration.reconnectDelay = .milliseconds(50)
        configuration.reconnectDelayLimit = .milliseconds(400)
        return configuration
    }

    @Test func everyQoS1ValueOfAnObservableIsAcknowledged() async throws {
        let broker = try await Mosquitto()
        let subscriber = try broker.subscribe("store/#", qos: 1)
        let publisher = try MQTTPublisher(configuration(broker, "store"))
        publisher.start()
        let store = PublishSubject<Int>()
        let subscription = try publisher.publish(store, topic: "store/count", qos: .atLeastOnce, retain: false) {
            Array("\($0)".utf8)
        }
        #expect(await eventually(within: 15) { publisher.statistics.isConnected })
        // The values are not retained, so publish them only once mosquitto_sub has subscribed: it has when the
        // retained birth message reaches it.
        #expect(
            await eventually(within: 15) { subscriber.standardOutput.contains("store/status online\n") },
            "\(subscriber.standardOutput)")
        for value in 1...50 { store.publish(value) }
        // 50 values and the birth message.
        #expect(await eventually(within: 15) { publisher.statistics.acknowledged == 51 }, "\(publisher.statistics)")
        #expect(await eventually(within: 15) { subscriber.standardOutput.contains("store/count 50\n") })
        #expect(publisher.statistics.unacknowledged == 0)
        subscription.dispose()
        publisher.stop()
        #expect(await eventually(within: 15) { subscriber.standardOutput.hasSuffix("store/status offline\n") })
        await subscriber.stop()
        await broker.stop()
    }

    @Test func messagesKeptWhileTheBrokerIsDownAreDeliveredAndAcknowledgedAfterItReturns() async throws {
        let broker = try await Mosquitto()
        let publisher = try MQTTPublisher(configuration(broker, "outage"))
        let log = Log()
        let subscription = publisher.events.subscribe { log.append("\($0)") }
        publisher.start()
        #expect(await eventually(within: 15) { publisher.statistics.isConnected })
        await broker.stop()
        #expect(await eventually(within: 15) { !publisher.statistics.isConnected })
        for value in 1...20 {
            try publisher.publish(MQTTMessage(topic: "outage/state", text: "\(value)", qos: .atLeastOnce, retain: true))
        }
        try publisher.publish(MQTTMessage(topic: "outage/event", text: "e", qos: .atLeastOnce))
        #expect(publisher.statistics.queuedEvents == 1)
        let acknowledgedBefore = publisher.statistics.acknowledged
        try await broker.start()
        #expect(
            await eventually(within: 15) { publisher.statistics.isConnected && publisher.statistics.connections >= 2 })
        // Birth, the latest state and the event: three acknowledgements, not twenty-two.
        #expect(await eventually(within: 15) { publisher.statistics.acknowledged - acknowledgedBefore >= 3 })
        let subscriber = try broker.subscribe("outage/state")
        #expect(
            await eventually(within: 15) { subscriber.standardOutput == "outage/state 20\n" },
            "\(subscriber.standardOutput)")
        #expect(log.lines.contains { $0.contains("reconnecting in") })
        #expect(log.lines.filter { $0.hasPrefix("connected to") }.count >= 2)
        subscription.dispose()
        publisher.stop()
        await subscriber.stop()
        await broker.stop()
    }

    @Test func aRestartedBrokerGetsEveryRetainedStateAgainWithoutANewValue() async throws {
        let broker = try await Mosquitto()
        let publisher = try MQTTPublisher(configuration(broker, "restate"))
        publisher.start()
        let state = BehaviorSubject(41)
        let subscription = try publisher.publish(state, topic: "restate/answer") { Array("\($0 + 1)".utf8) }
        #expect(
            await eventually(within: 15) { publisher.statistics.isConnected && publisher.statistics.published >= 2 })
        await broker.stop()
        try await broker.start()
        #expect(await eventually(within: 15) { publisher.statistics.connections >= 2 })
        let subscriber = try broker.subscribe("restate/#")
        #expect(
            await eventually(within: 15) { subscriber.standardOutput.contains("restate/answer 42\n") },
            "\(subscriber.standardOutput)")
        #expect(subscriber.standardOutput.contains("restate/status online\n"))
        subscription.dispose()
        publisher.stop()
        await subscriber.stop()
        await broker.stop()
    }

    @Test func invalidTopicsAreRefused() throws {
        let publisher = try MQTTPublisher(.init(host: "127.0.0.1", clientID: "x"))
        for topic in ["", "a/+/b", "a/#"] {
            #expect(throws: MQTTError.self) { try publisher.publish(MQTTMessage(topic: topic, text: "x")) }
        }
        var bad = MQTTPublisher.Configuration(host: "127.0.0.1", clientID: "x")
        bad.keepAlive = .seconds(70_000)
        #expect(throws: MQTTError.self) { try MQTTPublisher(bad) }
    }
}

/// Lines collected from any thread.
final class Log: Sendable {
    private let storage = FutexMutex<[String]>([])
    var lines: [String] { storage.withLock { $0 } }
    func append(_ line: String) { storage.withLock { $0.append(line) } }
}
