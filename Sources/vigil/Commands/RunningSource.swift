import Vigil
import VigilSensors

/// A started catalog source and the subscription that prints its readings.
struct RunningSource {
    let source: CatalogSource
    let subscription: Subscription

    /// Subscribes `emitter` to the readings of `source`, then starts it.
    ///
    /// - Throws: The ``SensorError`` that says why the source cannot start; nothing is left running then.
    init(_ source: CatalogSource, emitter: Emitter) throws {
        let id = source.id
        subscription = source.readings.subscribe(on: .queue(emitter.queue)) { reading in
            emitter.emit(source: id, reading: reading)
        }
        self.source = source
        do {
            try source.startMonitoring()
        } catch {
            subscription.dispose()
            throw error
        }
    }

    /// Stops the source, then stops printing it.
    func stop() {
        source.stopMonitoring()
        subscription.dispose()
    }
}
