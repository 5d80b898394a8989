import Glibc
import Testing
import VigilTestSupport

/// The built `vigil` binary with the IIO catalog entries, end to end on fake trees.
@Suite(.timeLimit(.minutes(10))) struct IIOCommandTests {
    @Test func listSaysPlainlyThatThereIsNoIIODevice() async throws {
        let empty = FakeSysfsTree()
        let vigil = try ChildProcess(vigil: ["list", "--sys-root", empty.root])
        #expect(await vigil.waitForExit())
        #expect(vigil.exitStatus == 0)
        // Output arrives through a pipe handler; wait for the last entry's line too.
        #expect(await eventually { vigil.standardOutput.contains("orientation ") })
        let lines = vigil.standardOutput.split(separator: "\n")
        for id in ["accelerometer", "gyroscope", "magnetometer", "light", "proximity", "barometer", "orientation"] {
            let line = lines.first { $0.hasPrefix(id + " ") }
            #expect(line?.contains("no IIO device") == true, "\(id): \(vigil.standardOutput)")
        }
    }

    @Test func watchReadsAPolledFakeTree() async throws {
        let tree = FakeIIOTree()
        tree.addDevice(0, name: "als", files: ["in_illuminance_input": "42.5\n"])
        let vigil = try ChildProcess(vigil: ["--sys-root", tree.root, "watch", "light"])
        #expect(await eventually { vigil.standardOutput.contains("light: 42.5 lx") }, "\(vigil.standardError)")
        vigil.signal(SIGINT)
        #expect(await vigil.waitForExit())
        #expect(vigil.exitStatus == 130)
    }

    @Test(.enabled(if: FakeIIOTree.captures != nil, "shared/testdata/iio is not beside the checkout"))
    func watchPlaysACaptureThroughTheDeviceNode() async throws {
        let tree = FakeIIOTree()
        tree.addCaptureAccelerometer()
        let vigil = try ChildProcess(vigil: ["--sys-root", tree.root, "watch", "orientation", "--json"])
        #expect(await eventually { vigil.standardError.contains("watching") }, "\(vigil.standardError)")
        #expect(tree.read("bus/iio/devices/iio:device0/buffer/enable") == "1")
        _ = tree.writeToFIFO("dev/iio:device0", try FakeIIOTree.readCapture("orientation-left-up.bin"))
        #expect(await eventually { vigil.standardOutput.contains(#""value":"left-up""#) }, "\(vigil.standardOutput)")
        vigil.signal(SIGINT)
        #expect(await vigil.waitForExit())
        #expect(vigil.exitStatus == 130)
        #expect(tree.read("bus/iio/devices/iio:device0/buffer/enable") == "0")
    }
}
