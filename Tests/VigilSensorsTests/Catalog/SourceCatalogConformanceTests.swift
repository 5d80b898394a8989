import Testing
import VigilSensors
import VigilTestSupport

extension InotifyKernelTests {
    /// Every ``SourceCatalog`` entry against the whole ``Source`` contract (``checkSourceConformance``), on a fake
    /// machine that has every device and on this machine's own `/sys` and `/proc`. The entries come from the catalog,
    /// so a new source is checked from the commit that adds it.
    ///
    /// Serialized: each case runs its source on a private event loop and times its start and stop; one case at a time
    /// keeps those times about the source, not about thirty others starting beside it. Inside ``InotifyKernelTests``,
    /// since the `files` entry watches with inotify.
    @Suite(.serialized, .timeLimit(.minutes(5))) struct SourceCatalogConformanceTests {
        static let ids = SourceCatalog.builtIn.map(\.id)

        /// The argument of an entry that takes one: a temporary directory, or for `reach` its targets (a port
        /// nothing listens on, an IPv6 literal and a name).
        static func argument(_ entry: SourceCatalog.Entry, files: TemporaryDirectory) -> BytePath? {
            guard entry.argumentName != nil else { return nil }
            return entry.id == "reach" ? "127.0.0.1:9 ::1 localhost" : BytePath(files.path)
        }

        @Test(arguments: ids) func conformsOnAFakeMachine(id: String) async throws {
            let entry = try #require(SourceCatalog.entry(id: id))
            let machine = FakeMachine.fullyEquipped()
            let files = TemporaryDirectory("vigil-conformance")
            defer { files.remove() }
            let options = machine.options
            let availability = entry.availability(options)
            guard availability.isAvailable else {
                try skip(
                    "\(id) is \(availability) on the fake machine: FakeMachine.fullyEquipped() has no device for it",
                    expectedUnderCI: false)
            }
            let setting = ConformanceSetting(
                label: "a fake machine",
                ownedRoots: [machine.sys.root, machine.proc.root, machine.etc.root, machine.dev.root, files.path],
                outage: .renaming([machine.sys.root, machine.proc.root, machine.etc.root]))
            let argument = Self.argument(entry, files: files)
            await checkSourceConformance(id, in: setting) { loop in
                var options = options
                options.eventLoop = loop
                return try entry.make(options, argument: argument)
            }
            withExtendedLifetime(machine) {}
        }

        @Test(arguments: ids) func conformsOnThisMachine(id: String) async throws {
            let entry = try #require(SourceCatalog.entry(id: id))
            let files = TemporaryDirectory("vigil-conformance")
            defer { files.remove() }
            let availability = entry.availability()
            guard availability.isAvailable else {
                // A CI machine has no battery, backlight or sensors; a missing kernel interface or permission is news.
                guard case .unavailable(let reason, _) = availability else { return }
                try skip("\(id) is \(availability) on this machine", expectedUnderCI: reason == .missingDevice)
            }
            let argument = Self.argument(entry, files: files)
            await checkSourceConformance(id, in: ConformanceSetting(label: "this machine", ownedRoots: [files.path])) {
                loop in
                try entry.make(SourceCatalog.Options(eventLoop: loop), argument: argument)
            }
        }
    }
}
