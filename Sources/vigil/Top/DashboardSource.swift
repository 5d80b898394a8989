import Vigil
import VigilSensors

/// A started catalog source and the subscription that feeds its readings to the dashboard.
struct DashboardSource {
    let source: CatalogSource
    let subscription: Subscription

    /// The most readings of one source waiting to be drawn: more than an event panel shows, so a burst of events
    /// still fills the panel with its latest, and a flood cannot grow memory (the panel shows only the newest).
    static let pendingLimit = 64

    /// Subscribes `dashboard` to the readings of `source` on its queue, then starts it.
    ///
    /// At most ``pendingLimit`` readings of the source wait for the dashboard's queue; older ones are dropped.
    ///
    /// - Throws: The ``SensorError`` that says why the source cannot start; nothing is left running then.
    init(_ source: CatalogSource, dashboard: TopDashboard) throws {
        let id = source.id
        let subscription = source.readings.subscribe(on: .queue(dashboard.queue, buffer: .newest(Self.pendingLimit))) {
            reading in
            dashboard.record(reading, from: id)
        }
        do {
            try source.startMonitoring()
        } catch {
            subscription.dispose()
            throw error
        }
        self.source = source
        self.subscription = subscription
    }

    /// Stops the source, then stops feeding the dashboard.
    func stop() {
        source.stopMonitoring()
        subscription.dispose()
    }
}
