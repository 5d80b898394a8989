import Vigil
import VigilSensors

/// One thing `watch` or `get` runs: a source, the readings to print from it (filtered or diffed by the command's
/// options), and the key it is known by (`cpu`, `files /tmp`).
struct WatchTarget: Sendable {
    /// The catalog id, printed as the envelope's `source`.
    let id: String
    /// The id with its argument, unique among the targets.
    let key: String
    let source: any Source
    let readings: Observable<any CatalogReading>
    /// Whether this machine has the source; nil when starting it says so better (a file path).
    let availability: (@Sendable () -> Availability)?

    init(catalog: CatalogSource, key: String, readings: Observable<any CatalogReading>? = nil) {
        id = catalog.id
        self.key = key
        source = catalog
        self.readings = readings ?? catalog.readings
        availability = { catalog.availability }
    }

    init<S: Source>(id: String, key: String, source: S, checksAvailability: Bool = true)
    where S.Reading: CatalogReading {
        self.id = id
        self.key = key
        self.source = source
        let observable: Observable<S.Reading> = source.readings.asObservable()
        readings = observable.map { reading -> any CatalogReading in reading }
        if checksAvailability {
            availability = { source.availability }
        } else {
            availability = nil
        }
    }

    init(_ other: WatchTarget, readings: Observable<any CatalogReading>) {
        id = other.id
        key = other.key
        source = other.source
        self.readings = readings
        availability = other.availability
    }
}

/// A started target and the subscription that prints its readings.
struct RunningTarget {
    let target: WatchTarget
    let subscription: Subscription

    /// Subscribes `emitter` to the target's readings, then starts its source.
    ///
    /// At most ``Emitter/pendingLimit`` readings of the target wait for the emitter's queue; when a source publishes
    /// faster than they are printed, the oldest are dropped and counted with the lines the writer drops.
    ///
    /// - Throws: The error that says why the source cannot start; nothing is left running then.
    init(_ target: WatchTarget, emitter: Emitter) throws {
        let (key, id) = (target.key, target.id)
        subscription = target.readings.subscribe(
            on: emitter.queue, keepingNewest: Emitter.pendingLimit, onDrop: emitter.countDropped
        ) { reading in
            emitter.emit(key: key, source: id, reading: reading)
        }
        self.target = target
        do {
            try target.source.startMonitoring()
        } catch {
            subscription.dispose()
            throw error
        }
    }

    /// Stops the source, then stops printing it.
    func stop() {
        target.source.stopMonitoring()
        subscription.dispose()
    }
}
