import Vigil
import VigilSensors

/// A started catalog source and the subscription that feeds its readings to the dashboard.
struct DashboardSource {
    let source: CatalogSource
    let subscription: Subscription

    /// Subscribes `dashboard` to the readings of `source` on its queue, then starts it.
    ///
    /// - Throws: The ``SensorError`` that says why the source cannot start; nothing is left running then.
    init(_ source: CatalogSource, dashboard: TopDashboard) throws {
        let id = source.id
        let subscription = source.readings.subscribe(on: .queue(dashboard.queue)) { reading in
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
