/// One decoded scan: the raw integer values of each enabled channel, and the timestamp when it was enabled.
package struct IIOScan: Hashable, Sendable {
    /// Each channel's values by scan element name (`accel_x`); one value, or `repeat` values for a repeated element.
    ///
    /// An unsigned 64-bit value above `Int64.max` keeps its bit pattern.
    package let values: [String: [Int64]]
    /// The `timestamp` channel in nanoseconds, when it is enabled.
    package let timestamp: Int64?

    /// Creates a scan from decoded values.
    package init(values: [String: [Int64]], timestamp: Int64?) {
        self.values = values
        self.timestamp = timestamp
    }

    /// The first value of the channel named `name`, or nil when it is not in the scan.
    package subscript(name: String) -> Int64? {
        values[name]?.first
    }
}
