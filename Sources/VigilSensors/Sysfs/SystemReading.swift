/// The latest reading of a sysfs or procfs source: ``SensorReading``, under the name the system monitors use.
public typealias SystemReading<Value> = SensorReading<Value>
where Value: Sendable & Equatable & Encodable & CustomStringConvertible
