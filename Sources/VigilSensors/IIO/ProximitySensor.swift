/// A proximity sensor: a unitless level (higher is nearer) and whether something is near (`proximity` channel).
///
/// Near and far are decided with a threshold and a hysteresis: the state turns near when the level reaches
/// `threshold`, and far again only when it drops below `threshold - hysteresis`, so a level hovering around the
/// threshold does not flicker. Without a threshold the device's `in_proximity_nearlevel` is used (the level the
/// driver or firmware calls near, as iio-sensor-proxy does); without either, `isNear` is nil.
public struct ProximitySensor: IIOSensorKind {
    /// One proximity reading.
    public struct Value: Hashable, Sendable, Encodable, CustomStringConvertible {
        /// The level, higher for nearer objects (unitless for most sensors).
        public let level: Double
        /// Whether something is near; nil when no threshold is known.
        public let isNear: Bool?
        /// When the sample was taken, in nanoseconds.
        public let timestamp: Int64

        /// Creates a reading.
        public init(level: Double, isNear: Bool?, timestamp: Int64) {
            self.level = level
            self.isNear = isNear
            self.timestamp = timestamp
        }

        public var description: String {
            let state = isNear.map { $0 ? "near" : "far" } ?? "no threshold"
            return "\(state) (level \(Vector3.format(level)))"
        }
    }

    public static let displayName = "Proximity"
    public static let channelType = "proximity"
    public static let isVector = false

    /// The configured threshold, or nil to use the device's `in_proximity_nearlevel`.
    public let configuredThreshold: Double?
    /// How far below the threshold the level must drop to turn far again.
    public let hysteresis: Double
    private var threshold: Double?
    private var isNear = false

    /// Creates the kind with the device's `in_proximity_nearlevel` as threshold and no hysteresis.
    public init() {
        self.init(threshold: nil)
    }

    /// Creates the kind.
    ///
    /// - Parameters:
    ///   - threshold: The level at which an object is near; nil to use the device's `in_proximity_nearlevel`.
    ///   - hysteresis: How far below the threshold the level must drop to turn far again; negative values count as 0.
    public init(threshold: Double? = nil, hysteresis: Double = 0) {
        configuredThreshold = threshold
        self.hysteresis = max(0, hysteresis)
        self.threshold = threshold
    }

    public mutating func prepare(device: IIODevice) throws(SensorError) {
        isNear = false
        threshold = configuredThreshold
        if threshold == nil, let path = device.attributePath("in_proximity_nearlevel") {
            threshold = try SysfsFile.readDouble(path)
        }
    }

    public mutating func value(from sample: IIOSample) -> Value {
        let level = sample.scalar
        guard let threshold else { return Value(level: level, isNear: nil, timestamp: sample.timestamp) }
        if level >= threshold {
            isNear = true
        } else if level < threshold - hysteresis {
            isNear = false
        }
        return Value(level: level, isNear: isNear, timestamp: sample.timestamp)
    }
}
