import Glibc

extension SourceCatalog {
    /// The IIO sensors: `accelerometer`, `gyroscope`, `magnetometer`, `light`, `proximity`, `barometer`,
    /// `orientation`, `compass` and `attitude`, each the first fitting device under ``Options/sysfsRoot``
    /// (`compass` and `attitude` with ``Options/declination``: the device's own channel, or the first accelerometer
    /// and magnetometer).
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
                OrientationMonitor(accelerometer: sensor(Accelerometer(), options, devices))
            },
            motionEntry("compass", "Compass heading (IIO), degrees from north") { options in
                // Entry.make refuses a declination Compass refuses; availability checks need no true heading.
                (try? Compass(declination: options.declination)) ?? Compass()
            },
            motionEntry("attitude", "Attitude: quaternion, yaw, pitch, roll (IIO)") { _ in DeviceAttitude() },
        ]
    }

    /// An entry for the first device of one sensor kind, read with `kind`'s default settings.
    private static func iioEntry<Kind: IIOSensorKind>(_ id: String, _ name: String, _ kind: Kind) -> Entry {
        .withUevents(id: id, name: name, subsystem: "iio") { options, devices in sensor(kind, options, devices) }
    }

    /// An entry for a motion source: the device's own channel, or the first accelerometer and magnetometer.
    private static func motionEntry<Kind: MotionKind>(
        _ id: String, _ name: String, _ kind: @escaping @Sendable (Options) -> Kind
    ) -> Entry {
        .withUevents(id: id, name: name, subsystem: "iio") { options, devices in
            MotionMonitor(
                kind: kind(options), deviceSensor: sensor(Kind.DeviceKind(), options, devices),
                accelerometer: sensor(Accelerometer(), options, devices),
                magnetometer: sensor(Magnetometer(), options, devices))
        }
    }

    /// The monitor of the first device of one sensor kind under the options' root.
    private static func sensor<Kind: IIOSensorKind>(
        _ kind: Kind, _ options: Options, _ devices: DeviceMonitor?
    ) -> IIOSensorMonitor<Kind> {
        IIOSensorMonitor<Kind>(
            kind: kind, root: options.sysfsRoot, mode: iioMode(Kind.self, options), changes: devices?.readings,
            eventLoop: options.eventLoop)
    }

    /// Buffered for a device with a readable node under a root other than `/sys`, polled otherwise.
    private static func iioMode<Kind: IIOSensorKind>(_ kind: Kind.Type, _ options: Options) -> IIOMode {
        guard options.sysfsRoot != "/sys", let devices = try? IIODevice.discover(root: options.sysfsRoot) else {
            return .polled
        }
        let device = devices.first {
            IIOChannelSet.fits(type: Kind.channelType, selection: Kind.channelSelection, device: $0)
        }
        guard let device, device.hasBuffer, !device.scanElements.isEmpty, access(device.deviceNodePath, R_OK) == 0
        else { return .polled }
        return .buffered()
    }
}
