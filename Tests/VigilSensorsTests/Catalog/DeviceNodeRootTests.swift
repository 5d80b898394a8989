import Glibc
import Testing
import Vigil
import VigilSensors
import VigilTestSupport

/// The sources that open device nodes, from the catalog on a fake tree: the machine's own `/dev` holds other devices
/// than the tree's (its `event0` is not the tree's lid, its `gnss0` not the tree's receiver), so none of it is opened;
/// a dev root given beside the tree is.
@Suite(.timeLimit(.minutes(5))) struct DeviceNodeRootTests {
    /// Each source, text of its reading once the devices are listed, and what the reading says under the machine's
    /// `/dev` and under the tree's own dev root.
    static let cases = [
        (
            "switches", "Lid Switch", "/dev/input/event0 is unavailable: not opened, since ",
            "/input/event0: no such file or directory"
        ),
        (
            "inventory", "capabilities unknown", "not asked: the sysfs tree read is not this machine's /sys",
            "/video0: no such file or directory"
        ),
        (
            "location", "gnss0", "class/gnss/gnss0 is unavailable: not opened, since ",
            "/gnss0"
        ),
    ]

    @Test(arguments: cases) func aFakeTreeOpensNoNodeOfTheMachinesDev(
        id: String, listed: String, underMachineDev: String, underTreeDev: String
    ) async throws {
        let machine = FakeMachine.empty()
        machine.addInventory()
        machine.sys.write("class/gnss/gnss0/type", "UBX\n")
        // A FIFO for the receiver's node: the event loop can watch it, as it watches a character device.
        mkfifo(machine.dev.root + "/gnss0", 0o600)
        let entry = try #require(SourceCatalog.entry(id: id))
        var machineDev = machine.options
        machineDev.devRoot = "/dev"
        for (options, expected) in [
            (machineDev, underMachineDev), (machine.options, machine.dev.root + underTreeDev),
        ] {
            #expect(entry.availability(options) == .available)
            let source = try entry.make(options)
            try source.startMonitoring()
            defer { source.stopMonitoring() }
            #expect(await eventually { source.latest?.description.contains(listed) == true })
            let line = source.latest?.description ?? ""
            #expect(line.contains(expected), "\(line)")
        }
    }
}
