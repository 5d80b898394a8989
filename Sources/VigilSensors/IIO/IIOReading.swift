/// The latest reading of an IIO sensor: ``SensorReading``, under the name the IIO monitors use.
public typealias IIOReading<Value> = SensorReading<Value>
where Value: Sendable & Equatable & Encodable & CustomStringConvertible
