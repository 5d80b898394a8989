import Vigil
import VigilSensors

/// Gives each network reading the rates of its interfaces' traffic counters since the reading before
/// (``TrafficRateMeter``), for `vigil watch network`: in its lines and in the JSON envelope, where `rates` appears
/// only from an interface's second reading on.
final class NetworkRates: Sendable {
    private let meter = FutexMutex(TrafficRateMeter<ContinuousClock.Instant>())

    /// `reading` with rates when it holds a path; anything else (unavailable) as it is.
    func measure(_ reading: any CatalogReading) -> any CatalogReading {
        guard let sensorReading = reading as? SensorReading<NetworkPath>, let path = sensorReading.value else {
            return reading
        }
        let measured = meter.withLock { $0.measure(path) }
        return SensorReading(.value(measured), time: sensorReading.time)
    }
}
