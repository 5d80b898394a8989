/// How an IIO monitor reads its device.
public enum IIOMode: Hashable, Sendable, CustomStringConvertible {
    /// Read the sysfs attributes every ``IIOSensorMonitor/updateInterval`` on the event loop's timer.
    ///
    /// When the monitor starts, the device's `sampling_frequency` is set to the closest available frequency at or
    /// above one read per update interval when it is writable (so the driver refreshes its values at least that
    /// often), and restored on stop.
    case polled
    /// Capture scans from `/dev/iio:deviceN` through the event loop.
    ///
    /// The monitor enables the channel's scan elements and the timestamp, sets the buffer length, selects the
    /// device's own trigger when it needs one and has none, sets `sampling_frequency` to `rate` when given, and
    /// enables the buffer; on stop or failure it disables the buffer and restores the scan elements.
    case buffered(rate: Double? = nil, length: Int = 64)

    public var description: String {
        switch self {
        case .polled: return "polled"
        case .buffered(let rate, let length):
            return "buffered (length \(length)" + (rate.map { ", \(Vector3.format($0)) Hz)" } ?? ")")
        }
    }
}
