import Glibc
import Vigil

/// Fixes from a GNSS receiver: the first `/dev/gnssN` the kernel lists under `<root>/class/gnss` (with its type), or
/// a serial device given by path (USB receivers are ttys).
///
/// The receiver's node is opened read-only and non-blocking (a terminal in raw mode, its speed left as it is) and
/// read on the event loop. Its NMEA 0183 is decoded by hand with bounded memory: checksums checked, binary frames
/// (UBX, SiRF) skipped by resynchronizing at `$`, and RMC, GGA, GSA, GSV, VTG, GST and ZDA of the talkers GP, GL, GA,
/// GB, BD, GQ and GN grouped into one ``LocationFix`` per UTC time, published when the next time begins. No fix is a
/// reading (`no fix, 3 satellites in view`), not an error.
///
/// A receiver that goes away (a read fails, the node vanishes) gives an `unavailable` reading; every
/// ``Source/updateInterval`` (default 5 s) and on ``Source/refresh()`` the monitor finds the receiver again and
/// reopens it when it returns.
///
/// Readings are a `BehaviorSubject` holding the latest ``SensorReading`` of ``LocationFix``, published on the
/// event-loop thread (or the thread calling ``Source/refresh()``), never under a lock.
public final class LocationMonitor: PollingSource {
    private let location: GNSSDevice.Location
    private let link: GNSSLink
    let driver: PollingDriver<LocationFix>
    let lifecycle = Lifecycle()

    /// A monitor of the first receiver under `<root>/class/gnss`; nothing is opened until it starts.
    ///
    /// - Parameters:
    ///   - root: The sysfs root.
    ///   - devRoot: The directory holding `gnssN`.
    ///   - updateInterval: How often a missing or vanished receiver is looked for (default 5 s); below 1 ms it is
    ///     raised to 1 ms.
    ///   - eventLoop: The loop that reads the receiver and runs the timer.
    public convenience init(
        root: String = "/sys", devRoot: String = "/dev", updateInterval: Duration = .seconds(5),
        eventLoop: EventLoop = .shared
    ) {
        self.init(
            location: .discovered(root: root, devRoot: devRoot), updateInterval: updateInterval, eventLoop: eventLoop)
    }

    /// A monitor of the serial device at `device` (for example `/dev/ttyACM0`); nothing is opened until it starts.
    ///
    /// - Parameters:
    ///   - device: The device's path, as bytes.
    ///   - updateInterval: How often a missing or vanished receiver is looked for (default 5 s).
    ///   - eventLoop: The loop that reads the receiver and runs the timer.
    public convenience init(device: BytePath, updateInterval: Duration = .seconds(5), eventLoop: EventLoop = .shared) {
        self.init(location: .serial(device), updateInterval: updateInterval, eventLoop: eventLoop)
    }

    /// A monitor that finds the receiver under `root` but opens no node, failing with `refusal`: the catalog's, under a
    /// fake sysfs tree whose nodes are not this machine's `/dev`.
    package convenience init(root: String, refusingNodes refusal: String, eventLoop: EventLoop = .shared) {
        self.init(
            location: .discovered(root: root, devRoot: nil, refusal: refusal), updateInterval: .seconds(5),
            eventLoop: eventLoop)
    }

    private init(location: GNSSDevice.Location, updateInterval: Duration, eventLoop: EventLoop) {
        self.location = location
        let link = GNSSLink(location: location, eventLoop: eventLoop)
        self.link = link
        let driver = PollingDriver(interval: updateInterval, eventLoop: eventLoop) { () throws(SensorError) in
            try link.check()
        }
        self.driver = driver
        link.onEvent.value = { [weak driver] event in
            driver?.publish { (_) throws(SensorError) in try event.get() }
        }
    }

    deinit { stopMonitoring() }

    public var name: String { "Location" }

    /// Available when the receiver's node exists and may be read; unavailable when there is none, with what to do
    /// when it may not be read.
    public var availability: Availability {
        let device: GNSSDevice
        do {
            device = try GNSSDevice.find(location)
        } catch .notFound(let path) {
            return .unavailable(reason: .missingDevice, detail: "no GNSS receiver (no \(path))")
        } catch {
            return .unavailable(reason: .kernelLacksInterface, detail: "\(error)")
        }
        let path = device.path.displayText
        guard SysfsFile.exists(device.path) else {
            return .unavailable(reason: .missingDevice, detail: "the GNSS receiver's node \(path) is missing")
        }
        let readable = device.path.withCString { access($0, R_OK) == 0 }
        guard readable else {
            return .unavailable(reason: .permissionDenied, detail: "\(path): \(Evdev.permissionAdvice(for: path))")
        }
        return .available
    }

    /// Opens the receiver and reads it on the event loop; concurrent calls start once.
    ///
    /// The receiver is opened on the event loop, so the start returns at once with the readings `pending`.
    ///
    /// - Throws: ``SensorError/unavailable(source:reason:)`` when ``availability`` says there is no receiver or it
    ///   may not be read, or a ``SensorError`` when the event loop cannot run the timer.
    public func startMonitoring() throws(SensorError) {
        if case .unavailable(_, let detail) = availability {
            throw SensorError.unavailable(source: name, reason: detail)
        }
        try lifecycle.start { (generation) throws(SensorError) in
            link.begin(generation)
            lifecycle.keep(generation) { [link] in link.end() }
            try driver.start(firstRead: .onLoop)
            lifecycle.keep(generation) { [driver] in driver.stop() }
        }
    }
}
