import Dispatch
import Vigil
import VigilSensors

/// One source the `vigil` tool knows: its id on the command line, how to check it, and how to run it.
struct CatalogEntry: Sendable {
    /// The id typed on the command line, for example `files` or `battery`.
    let id: String
    /// The human name shown by `vigil list`.
    let name: String
    /// The argument the entry needs after its id (for example `PATH`), or nil.
    let argumentName: String?
    /// Whether the source can run here, and why not.
    let availability: @Sendable (CatalogContext) -> Availability
    /// Starts the source; `emit` receives every reading, on the tool's output queue.
    let start: @Sendable (CatalogContext, String?, Emitter) throws -> RunningSource

    /// An entry for a ``Source`` whose readings print as lines and encode as JSON.
    ///
    /// - Parameters:
    ///   - make: Builds the source from the global options and the entry's argument (nil if it takes none).
    static func source<S: Source>(
        id: String, name: String, argumentName: String? = nil,
        make: @escaping @Sendable (CatalogContext, String?) -> S
    ) -> CatalogEntry where S.Reading: Encodable & CustomStringConvertible {
        CatalogEntry(
            id: id, name: name, argumentName: argumentName,
            availability: { context in make(context, argumentName == nil ? nil : "/").availability },
            start: { context, argument, emitter in
                let source = make(context, argument)
                let subscription = source.readings.subscribe(on: .queue(emitter.queue)) { reading in
                    emitter.emit(source: id, reading: reading)
                }
                try source.startMonitoring()
                return RunningSource(monitor: source, subscription: subscription)
            })
    }
}

/// A started source and the subscription that prints it.
struct RunningSource: Sendable {
    let monitor: any Monitor
    let subscription: Subscription

    func stop() {
        monitor.stopMonitoring()
        subscription.dispose()
    }
}
