/// The reading of the `wifi` source: every wireless interface with its connection, and the last event.
public struct WiFiStatus: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// The wireless interfaces, by index.
    public var interfaces: [WiFiInterface]
    /// The last event announced (connect, disconnect, roam, scan results, …) since the source started.
    public var lastEvent: WiFiEvent?

    /// Creates a status record.
    public init(interfaces: [WiFiInterface], lastEvent: WiFiEvent? = nil) {
        self.interfaces = interfaces
        self.lastEvent = lastEvent
    }

    /// Whether some station interface is connected.
    public var isConnected: Bool { interfaces.contains { $0.connection != nil } }

    /// One line per interface, `no wireless interfaces` when there is none.
    public var description: String {
        interfaces.isEmpty ? "no wireless interfaces" : interfaces.map(\.description).joined(separator: "; ")
    }
}
