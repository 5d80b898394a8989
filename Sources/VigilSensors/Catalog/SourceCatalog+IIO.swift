import Glibc

extension SourceCatalog {
    /// The IIO sensors: `accelerometer`, `gyroscope`, `magnetometer`, `light`, `proximity`, `barometer` and
    /// `orientation`, each the first fitting device under ``Options/sysfsRoot``.
    ///
    /// Under the real `/sys` the sensors are polled (10 Hz), which leaves the devices' buffers to other users such as
    /// iio-sensor-proxy, and follow hot-plug through the kernel's `iio` uevents. Under another root, a device that
    /// has a buffer and a readable node at `<root>/dev/iio:deviceN` (a captured or fake device) is read in buffered
    /// mode, so captured scans play end to end; otherwise it is polled too.
    static var iioEntries: [Entry] {
        [
            iioEntry("accelerometer", "Accelerometer (IIO), m/s²", Accelerometer()),
            iioEntry("gyroscope", "Gyroscope (IIO), rad/s", Gyroscope()),
            iioEntry("magnetometer", "Magnetometer (IIO), µT", Magnetometer()),
            iioEntry("light", "Ambient light (IIO), lux", AmbientLight()),
            iioEntry("proximity", "Proximity (IIO)", ProximitySensor()),
            iioEntry("barometer", "Air pressure and altitude (IIO), kPa", Barometer()),
            .withUevents(id: "orientation", name: "Screen orientation (IIO accelerometer)", subsystem: "iio") {
                options, devices in
                OrientationMonitor(
                    accelerometer: AccelerometerMonitor(
                        kind: Accelerometer(), root: options.sysfsRoot, mode: iioMode(Accelerometer.self, options),
                        changes: devices?.readings, eventLoop: options.eventLoop))
            },
        ]
    }

    /// An entry for the first device of one sensor kind, read with `kind`'s default settings.
    private static func iioEntry<Kind: IIOSensorKind>(_ id: String, _ name: String, _ kind: Kind) -> Entry {
        .withUevents(id: id, name: name, subsystem: "iio") { options, devices in
            IIOSensorMonitor<Kind>(
                kind: kind, root: options.sysfsRoot, mode: iioMode(Kind.self, options), changes: devices?.readings,
                eventLoop: options.eventLoop)
        }
    }

    /// Buffered for a device with a readable node under a root other than `/sys`, polled otherwise.
    private static func iioMode<Kind: IIOSensorKind>(_ kind: Kind.Type, _ options: Options) -> IIOMode {
        guard options.sysfsRoot != "/sys", let devices = try? IIODevice.discover(root: options.sysfsRoot) else {
            return .polled
        }
        let device = devices.first { $0.hasChannel(ofType: Kind.channelType) }
        guard let device, device.hasBuffer, !device.scanElements.isEmpty, access(device.deviceNodePath, R_OK) == 0
        else { return .polled }
        return .buffered()
    }
}
