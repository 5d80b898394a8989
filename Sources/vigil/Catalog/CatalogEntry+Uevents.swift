import Vigil
import VigilSensors

extension CatalogEntry {
    /// An entry whose source also follows the kernel's uevents for `subsystem` (changes, hot-plug), through a
    /// ``DeviceMonitor`` started and stopped with it, which `make` gets (or `nil` without uevents). Uevents are used only for the machine's own `/sys`: with
    /// `--sys-root` the events would describe other devices than the tree being read, so that source does without.
    static func withUevents<S: Source>(
        id: String, name: String, subsystem: String,
        make: @escaping @Sendable (CatalogContext, DeviceMonitor?) -> S
    ) -> CatalogEntry where S.Reading: Encodable & CustomStringConvertible {
        CatalogEntry(
            id: id, name: name, argumentName: nil,
            availability: { context in make(context, nil).availability },
            start: { context, _, emitter in
                let devices = DeviceMonitor(subsystems: [subsystem])
                let useUevents = context.sysRoot == "/sys" && devices.availability.isAvailable
                let source = make(context, useUevents ? devices : nil)
                let subscription = source.readings.subscribe(on: .queue(emitter.queue)) { reading in
                    emitter.emit(source: id, reading: reading)
                }
                let group = MonitorGroup(useUevents ? [devices, source] : [source])
                try group.startMonitoring()
                return RunningSource(monitor: group, subscription: subscription)
            })
    }
}
