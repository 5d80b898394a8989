/// One reading of a ``CatalogSource``: something that can cross threads, print as a line and encode as JSON.
///
/// Every built-in source's reading qualifies (a ``SensorReading`` of a state, a ``SensorEvent`` of events such as
/// ``DeviceEvent``), so a catalog source publishes them as
/// `any CatalogReading` and a consumer shows them with `description` or stores them with an `Encoder` without
/// knowing the concrete type.
public typealias CatalogReading = Sendable & Encodable & CustomStringConvertible
