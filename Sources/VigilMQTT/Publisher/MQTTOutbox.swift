/// What the publisher still has to send, as a value: the latest message of each retained topic, a bounded queue of
/// event messages, and the QoS 1 messages the broker has not acknowledged.
///
/// State (retained) topics keep only their latest message, so memory is bounded by the number of topics, however
/// long the broker is away; on every connection each retained topic is sent again (a broker restarted without
/// persistence has forgotten it). Events keep their order, at most ``eventLimit`` of them; the oldest are dropped
/// and counted. At most ``inflightLimit`` QoS 1 messages wait for their PUBACK; more wait in the queues.
struct MQTTOutbox: Sendable {
    /// A message ready to encode, with its packet id at QoS 1.
    struct Outgoing: Equatable {
        var message: MQTTMessage
        var packetID: UInt16?
        var duplicate: Bool
    }

    let eventLimit: Int
    let inflightLimit: Int

    /// Retained topics in first-publish order, each with its latest message and whether it still has to be sent.
    private var retainedOrder: [String] = []
    private var retained: [String: (message: MQTTMessage, unsent: Bool)] = [:]
    private var events: [MQTTMessage] = []
    private var eventsStart = 0
    /// Unacknowledged QoS 1 messages by packet id, and the ids in the order they were sent.
    private var inflight: [UInt16: MQTTMessage] = [:]
    private var inflightOrder: [UInt16] = []
    private var nextPacketID: UInt16 = 1
    /// Events dropped since the count was last taken, and in all.
    private(set) var droppedSinceReport = 0
    private(set) var droppedTotal = 0

    init(eventLimit: Int, inflightLimit: Int) {
        self.eventLimit = max(eventLimit, 0)
        self.inflightLimit = max(min(inflightLimit, 65_535), 1)
    }

    /// Event messages waiting to be sent.
    var queuedEvents: Int { events.count - eventsStart }
    /// Retained topics whose latest message has not been sent on this connection.
    var unsentStates: Int { retained.values.filter(\.unsent).count }
    /// QoS 1 messages sent and not yet acknowledged.
    var unacknowledged: Int { inflight.count }

    /// Keeps `message` to send: the latest of its topic if retained, else at the end of the event queue (dropping
    /// the oldest event when the queue is full).
    mutating func enqueue(_ message: MQTTMessage) {
        if message.retain {
            if retained.updateValue((message, true), forKey: message.topic) == nil {
                retainedOrder.append(message.topic)
            }
            return
        }
        guard eventLimit > 0 else { return drop(1) }
        events.append(message)
        if queuedEvents > eventLimit {
            eventsStart += 1
            drop(1)
        }
        compactEvents()
    }

    /// The next message to write, if any may go now: unsent states first, then events; a QoS 1 message only while
    /// fewer than ``inflightLimit`` wait for their PUBACK (it then counts as in flight).
    mutating func next() -> Outgoing? {
        let canSendQoS1 = inflight.count < inflightLimit
        for topic in retainedOrder {
            guard let entry = retained[topic], entry.unsent else { continue }
            if entry.message.qos == .atLeastOnce && !canSendQoS1 { continue }
            retained[topic]?.unsent = false
            return outgoing(entry.message)
        }
        guard eventsStart < events.count else { return nil }
        let message = events[eventsStart]
        if message.qos == .atLeastOnce && !canSendQoS1 { return nil }
        eventsStart += 1
        compactEvents()
        return outgoing(message)
    }

    /// Forgets the in-flight message `packetID`; false when no message has that id (a stray PUBACK).
    mutating func acknowledge(packetID: UInt16) -> Bool {
        guard inflight.removeValue(forKey: packetID) != nil else { return false }
        inflightOrder.removeAll { $0 == packetID }
        return true
    }

    /// Called for a new connection: the in-flight messages to send again with DUP set, oldest first; every retained
    /// topic is marked unsent unless its message is among them.
    mutating func reconnected() -> [Outgoing] {
        let resend = inflightOrder.compactMap { id in
            inflight[id].map { Outgoing(message: $0, packetID: id, duplicate: true) }
        }
        let inflightTopics = Set(resend.map(\.message.topic))
        for topic in retainedOrder where !inflightTopics.contains(topic) { retained[topic]?.unsent = true }
        return resend
    }

    /// Returns the events dropped since the last call, and starts counting again.
    mutating func takeDropped() -> Int {
        defer { droppedSinceReport = 0 }
        return droppedSinceReport
    }

    private mutating func outgoing(_ message: MQTTMessage) -> Outgoing {
        guard message.qos == .atLeastOnce else { return Outgoing(message: message, packetID: nil, duplicate: false) }
        var id = nextPacketID
        while inflight[id] != nil { id = id == .max ? 1 : id + 1 }
        nextPacketID = id == .max ? 1 : id + 1
        inflight[id] = message
        inflightOrder.append(id)
        return Outgoing(message: message, packetID: id, duplicate: false)
    }

    private mutating func drop(_ count: Int) {
        droppedSinceReport += count
        droppedTotal += count
    }

    private mutating func compactEvents() {
        if eventsStart > 64 && eventsStart * 2 >= events.count {
            events.removeFirst(eventsStart)
            eventsStart = 0
        }
    }
}
