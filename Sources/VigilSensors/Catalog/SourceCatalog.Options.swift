extension SourceCatalog {
    /// What every catalog entry is made with: where the kernel's file systems are, which network namespace to watch,
    /// and which event loop runs the sources.
    public struct Options: Sendable {
        /// The root of sysfs, `/sys` by default; a fake or captured tree works the same.
        ///
        /// Sources that follow the kernel's uevents (power, battery, backlight, IIO hot-plug) use them only under
        /// `/sys`: under another root the events would describe other devices than the tree being read.
        public var sysfsRoot: String
        /// The root of procfs, `/proc` by default.
        public var procfsRoot: String
        /// The configuration directory, `/etc` by default: where the `device` source reads `os-release` (falling back
        /// to `usr/lib/os-release` beside it) and `machine-id`.
        public var etcRoot: String
        /// The device-node directory, `/dev` by default: where the `switches` source opens `input/eventN`, `radios`
        /// reads `rfkill` and the `inventory` asks video nodes. Beside another sysfs root the default `/dev` is not used (it holds this
        /// machine's nodes, not the tree's): give the tree's own.
        public var devRoot: String
        /// The network namespace the netlink sources watch, or nil for the process's own: a name from
        /// `ip netns add` (looked up under `/var/run/netns`) or, when it holds a slash, a path such as
        /// `/proc/PID/ns/net`.
        public var networkNamespace: String?
        /// The firewall mark the `reach` source's route lookups (`ip route get ADDR mark M`) and TCP probes carry,
        /// so policy rules that select on a mark apply; nil for none.
        public var firewallMark: UInt32?
        /// The local magnetic declination in degrees east (−180 to 180) that the `compass` adds to its magnetic
        /// heading for a true heading, or nil for magnetic headings alone; see ``Compass/init(declination:)``.
        public var declination: Double?
        /// The loop that runs the sources' timers and watches their descriptors.
        public var eventLoop: EventLoop
        /// Makes the generic netlink clients the `wifi` source sends its requests through, instead of a socket of its
        /// own (a replayed nl80211 in tests); its event socket then joins no group.
        package var wifiClient: (@Sendable () throws(SensorError) -> GenericNetlinkClient)?

        /// Creates options; the defaults read the machine's own kernel on the shared event loop.
        ///
        /// - Parameters:
        ///   - sysfsRoot: The root of sysfs.
        ///   - procfsRoot: The root of procfs.
        ///   - etcRoot: The configuration directory.
        ///   - devRoot: The device-node directory.
        ///   - networkNamespace: A network namespace name or path, or nil for the process's own.
        ///   - declination: The magnetic declination for the compass's true heading, in degrees east, or nil.
        ///   - firewallMark: The firewall mark of the `reach` source's route lookups and TCP probes, or nil.
        ///   - eventLoop: The loop that runs the sources.
        public init(
            sysfsRoot: String = "/sys", procfsRoot: String = "/proc", etcRoot: String = "/etc",
            devRoot: String = "/dev", networkNamespace: String? = nil, declination: Double? = nil,
            firewallMark: UInt32? = nil, eventLoop: EventLoop = .shared
        ) {
            self.sysfsRoot = sysfsRoot
            self.procfsRoot = procfsRoot
            self.etcRoot = etcRoot
            self.devRoot = devRoot
            self.networkNamespace = networkNamespace
            self.declination = declination
            self.firewallMark = firewallMark
            self.eventLoop = eventLoop
        }

        /// Checks the options that a source would refuse.
        ///
        /// - Throws: ``SensorError/invalidArgument(name:value:reason:)`` for a ``declination`` that is not a finite
        ///   number from −180 to 180.
        func validate() throws(SensorError) {
            _ = try Compass(declination: declination)
        }

        /// The namespace as a path the netlink monitors open, or nil for the process's own.
        var networkNamespacePath: String? {
            guard let name = networkNamespace else { return nil }
            return name.contains("/") ? name : "/var/run/netns/" + name
        }

        /// Whether uevents describe the tree being read: only under the machine's own `/sys`.
        var followsUevents: Bool { sysfsRoot == "/sys" }

        /// Where the nodes of the devices the sysfs root describes are: ``devRoot`` under `/sys`, or when one was
        /// given beside another sysfs root; nil under another sysfs root with the default `/dev`, whose nodes are
        /// this machine's devices, not the tree's. The sources that open nodes (`switches`, `radios`, `inventory`) open none
        /// then.
        var deviceNodeRoot: String? { followsUevents || devRoot != "/dev" ? devRoot : nil }

        /// Why a source opened no device node under a sysfs root without its ``deviceNodeRoot``.
        var missingDeviceNodeRoot: String {
            "not opened, since \(sysfsRoot) is not this machine's /sys: give the tree's node directory (--dev-root)"
        }
    }
}
