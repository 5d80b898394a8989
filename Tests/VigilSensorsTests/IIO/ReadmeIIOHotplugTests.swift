import Foundation
import Testing
import Vigil
import VigilSensors
import VigilTestSupport

/// The README's IIO hot-plug example, verbatim and against the public API only (plain `import VigilSensors`): it
/// passed `devices.ueventProperties`, the power and backlight input, where the IIO monitors take device events, and
/// did not compile. Every source that follows uevents now takes ``DeviceEvent``.
@Suite(.timeLimit(.minutes(5))) struct ReadmeIIOHotplugTests {
    /// The example's lines, as the README shows them.
    static let example = """
        let devices = DeviceMonitor(subsystems: ["iio"])
        let accelerometer = AccelerometerMonitor(changes: devices.readings)
        try ([devices, accelerometer] as [any Monitor]).startMonitoring()
        """

    /// The example with the machine's tree as `root`; the device monitor is not started, so no netlink is needed.
    private func readmeExample(root: String) throws -> (DeviceMonitor, AccelerometerMonitor) {
        let devices = DeviceMonitor(subsystems: ["iio"])
        let accelerometer = AccelerometerMonitor(root: root, changes: devices.readings)
        try ([accelerometer] as [any Monitor]).startMonitoring()
        return (devices, accelerometer)
    }

    @Test func theReadmeShowsTheExampleThatCompiles() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../../README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        #expect(text.contains(Self.example))
    }

    @Test func theExampleFollowsAnAddedDevice() throws {
        let tree = FakeIIOTree()
        let (devices, accelerometer) = try readmeExample(root: tree.root)
        defer { accelerometer.stopMonitoring() }
        #expect(accelerometer.readings.value.value == nil)
        tree.addDevice(
            0, name: "accel",
            files: [
                "in_accel_x_raw": "0\n", "in_accel_y_raw": "0\n", "in_accel_z_raw": "1000\n", "in_accel_scale": "1\n",
            ])
        devices.readings.publish(
            .uevent(Uevent(action: .add, devpath: "/devices/iio:device0", subsystem: "iio", devname: "iio:device0")))
        let recorder = IIOReadingRecorder(accelerometer.readings)
        #expect(recorder.first { $0.value?.acceleration.z == 1000 } != nil)
    }
}
