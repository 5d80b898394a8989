import Glibc
import VigilSensors

extension Catalog {
    /// The IIO sensors: `vigil watch accelerometer`, `gyroscope`, `magnetometer`, `light`, `proximity`, `pressure`,
    /// `orientation`, read under `--sys-root`.
    ///
    /// Under the real `/sys` the sensors are polled (10 Hz), which leaves the devices' buffers to other users such
    /// as iio-sensor-proxy, and follow hot-plug through the kernel's `iio` uevents. Under another root, a device that has a buffer and a readable node at
    /// `<root>/dev/iio:deviceN` (a captured or fake device) is read in buffered mode, so captured scans play end to
    /// end; otherwise it is polled too.
    static var iioEntries: [CatalogEntry] {
        [
            iioEntry("accelerometer", "Accelerometer (IIO), m/s²", Accelerometer.self),
            iioEntry("gyroscope", "Gyroscope (IIO), rad/s", Gyroscope.self),
            iioEntry("magnetometer", "Magnetometer (IIO), µT", Magnetometer.self),
            iioEntry("light", "Ambient light (IIO), lux", AmbientLight.self),
            iioEntry("proximity", "Proximity (IIO)", ProximitySensor.self),
            iioEntry("barometer", "Air pressure and altitude (IIO), kPa", Barometer.self),
            .withUevents(id: "orientation", name: "Screen orientation (IIO accelerometer)", subsystem: "iio") {
                context, devices in
                OrientationMonitor(
                    root: context.sysRoot, mode: iioMode(Accelerometer.self, context), changes: devices?.readings)
            },
        ]
    }

    /// An entry for the first device of one sensor kind under `--sys-root`.
    private static func iioEntry<Kind: IIOSensorKind>(_ id: String, _ name: String, _ kind: Kind.Type) -> CatalogEntry {
        .withUevents(id: id, name: name, subsystem: "iio") { context, devices in
            IIOSensorMonitor<Kind>(root: context.sysRoot, mode: iioMode(Kind.self, context), changes: devices?.readings)
        }
    }

    /// Buffered for a device with a readable node under a non-default root, polled otherwise.
    private static func iioMode<Kind: IIOSensorKind>(_ kind: Kind.Type, _ context: CatalogContext) -> IIOMode {
        guard context.sysRoot != "/sys", let devices = try? IIODevice.discover(root: context.sysRoot) else {
            return .polled
        }
        let device = devices.first { $0.hasChannel(ofType: Kind.channelType) }
        guard let device, device.hasBuffer, !device.scanElements.isEmpty, access(device.deviceNodePath, R_OK) == 0
        else { return .polled }
        return .buffered()
    }
}
