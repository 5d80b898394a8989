import Glibc
import VigilSensors

extension Catalog {
    /// The IIO sensors: `vigil watch accelerometer`, `gyroscope`, `magnetometer`, `light`, `proximity`, `pressure`,
    /// `orientation`, read under `--sys-root`.
    ///
    /// Under the real `/sys` the sensors are polled (10 Hz), which leaves the devices' buffers to other users such
    /// as iio-sensor-proxy. Under another root, a device that has a buffer and a readable node at
    /// `<root>/dev/iio:deviceN` (a captured or fake device) is read in buffered mode, so captured scans play end to
    /// end; otherwise it is polled too.
    static var iioEntries: [CatalogEntry] {
        [
            .source(id: "accelerometer", name: "Accelerometer (IIO), m/s²") { context, _ in
                AccelerometerMonitor(root: context.sysRoot, mode: iioMode(Accelerometer.self, context))
            },
            .source(id: "gyroscope", name: "Gyroscope (IIO), rad/s") { context, _ in
                GyroscopeMonitor(root: context.sysRoot, mode: iioMode(Gyroscope.self, context))
            },
            .source(id: "magnetometer", name: "Magnetometer (IIO), µT") { context, _ in
                MagnetometerMonitor(root: context.sysRoot, mode: iioMode(Magnetometer.self, context))
            },
            .source(id: "light", name: "Ambient light (IIO), lux") { context, _ in
                AmbientLightMonitor(root: context.sysRoot, mode: iioMode(AmbientLight.self, context))
            },
            .source(id: "proximity", name: "Proximity (IIO)") { context, _ in
                ProximityMonitor(root: context.sysRoot, mode: iioMode(ProximitySensor.self, context))
            },
            .source(id: "pressure", name: "Pressure and altitude (IIO), kPa") { context, _ in
                PressureMonitor(root: context.sysRoot, mode: iioMode(Barometer.self, context))
            },
            .source(id: "orientation", name: "Screen orientation (IIO accelerometer)") { context, _ in
                OrientationMonitor(root: context.sysRoot, mode: iioMode(Accelerometer.self, context))
            },
        ]
    }

    /// Buffered for a device with a readable node under a non-default root, polled otherwise.
    private static func iioMode<Kind: IIOSensorKind>(_ kind: Kind.Type, _ context: CatalogContext) -> IIOMode {
        guard context.sysRoot != "/sys", let devices = try? IIODevice.discover(root: context.sysRoot) else {
            return .polled()
        }
        let device = devices.first { $0.hasChannel(ofType: Kind.channelType) }
        guard let device, device.hasBuffer, !device.scanElements.isEmpty, access(device.deviceNodePath, R_OK) == 0
        else { return .polled() }
        return .buffered()
    }
}
