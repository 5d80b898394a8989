import Testing

@testable import VigilMQTT

@Suite(.timeLimit(.minutes(10))) struct MQTTOutboxTests {
    private func state(_ topic: String, _ text: String, qos: MQTTQoS = .atMostOnce) -> MQTTMessage {
        MQTTMessage(topic: topic, text: text, qos: qos, retain: true)
    }

    private func event(_ text: String, qos: MQTTQoS = .atMostOnce) -> MQTTMessage {
        MQTTMessage(topic: "e", text: text, qos: qos)
    }

    private func drain(_ outbox: inout MQTTOutbox) -> [String] {
        var texts: [String] = []
        while let next = outbox.next() { texts.append(String(decoding: next.message.payload, as: UTF8.self)) }
        return texts
    }

    @Test func keepsOnlyTheLatestStateAndABoundedCountOfEvents() {
        var outbox = MQTTOutbox(eventLimit: 3, inflightLimit: 10)
        for index in 0..<100 { outbox.enqueue(state("battery", "\(index)")) }
        for index in 0..<5 { outbox.enqueue(event("e\(index)")) }
        #expect(outbox.queuedEvents == 3 && outbox.droppedTotal == 2)
        #expect(drain(&outbox) == ["99", "e2", "e3", "e4"])
        #expect(outbox.takeDropped() == 2 && outbox.takeDropped() == 0 && outbox.droppedTotal == 2)
    }

    @Test func everyStateIsSentAgainOnReconnect() {
        var outbox = MQTTOutbox(eventLimit: 10, inflightLimit: 10)
        outbox.enqueue(state("a", "1"))
        outbox.enqueue(state("b", "2"))
        outbox.enqueue(event("x"))
        #expect(drain(&outbox) == ["1", "2", "x"])
        #expect(outbox.reconnected().isEmpty)
        #expect(drain(&outbox) == ["1", "2"])
    }

    @Test func unacknowledgedMessagesAreResentWithDuplicateSetAndTheSameID() throws {
        var outbox = MQTTOutbox(eventLimit: 10, inflightLimit: 2)
        outbox.enqueue(event("1", qos: .atLeastOnce))
        outbox.enqueue(event("2", qos: .atLeastOnce))
        outbox.enqueue(event("3", qos: .atLeastOnce))
        let sent = (outbox.next(), outbox.next())
        let first = try #require(sent.0)
        let second = try #require(sent.1)
        let third = outbox.next()
        #expect(third == nil, "the in-flight window is full")
        #expect(first.packetID != second.packetID && first.packetID != nil && !first.duplicate)
        let firstID = try #require(first.packetID)
        let acknowledged = (outbox.acknowledge(packetID: firstID), outbox.acknowledge(packetID: firstID))
        #expect(acknowledged == (true, false), "a stray PUBACK is ignored")
        let resend = outbox.reconnected()
        #expect(resend == [MQTTOutbox.Outgoing(message: second.message, packetID: second.packetID, duplicate: true)])
        #expect(drain(&outbox) == ["3"])
        #expect(outbox.unacknowledged == 2)
    }

    @Test func packetIDsSkipZeroAndIDsInUse() {
        var outbox = MQTTOutbox(eventLimit: 70_000, inflightLimit: 65_535)
        var seen = Set<UInt16>()
        for index in 0..<65_535 { outbox.enqueue(event("\(index)", qos: .atLeastOnce)) }
        while let next = outbox.next() { seen.insert(next.packetID ?? 0) }
        #expect(seen.count == 65_535 && !seen.contains(0))
    }

    @Test func backoffDoublesWithJitterUpToItsLimit() {
        var backoff = MQTTReconnectBackoff(first: .milliseconds(100), limit: .seconds(1))
        var generator = SystemRandomNumberGenerator()
        var steps: [Duration] = []
        for _ in 0..<6 { steps.append(backoff.take(using: &generator)) }
        let limits: [Duration] = [
            .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1), .seconds(1),
        ]
        for (delay, step) in zip(steps, limits) { #expect(delay >= step / 2 && delay <= step) }
        backoff.reset()
        #expect(backoff.take(using: &generator) <= .milliseconds(100))
    }
}
