import VigilSensors

/// Monitors that start together (all or none) and stop together, as one ``Monitor``.
final class MonitorGroup: Monitor {
    private let monitors: [any Monitor]

    init(_ monitors: [any Monitor]) { self.monitors = monitors }

    var isMonitoring: Bool { monitors.contains { $0.isMonitoring } }
    func startMonitoring() throws { try monitors.startMonitoring() }
    func stopMonitoring() { monitors.reversed().stopMonitoring() }
}
