/// One decoded scan: the raw integer values of each enabled channel, and the timestamp when it was enabled.
public struct IIOScan: Hashable, Sendable {
    /// Each channel's values by scan element name (`accel_x`); one value, or `repeat` values for a repeated element.
    ///
    /// An unsigned 64-bit value above `Int64.max` keeps its bit pattern.
    public let values: [String: [Int64]]
    /// The `timestamp` channel in nanoseconds, when it is enabled.
    public let timestamp: Int64?

    /// Creates a scan from decoded values.
    public init(values: [String: [Int64]], timestamp: Int64?) {
        self.values = values
        self.timestamp = timestamp
    }

    /// The first value of the channel named `name`, or nil when it is not in the scan.
    public subscript(name: String) -> Int64? {
        values[name]?.first
    }
}
