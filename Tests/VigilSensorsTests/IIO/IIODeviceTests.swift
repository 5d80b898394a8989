import Testing
import VigilSensors
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct IIODeviceTests {
    @Test func noBusMeansNoDevices() throws {
        #expect(try IIODevice.discover(root: "/nonexistent-vigil-root").isEmpty)
        let tree = FakeIIOTree()
        #expect(try IIODevice.discover(root: tree.root).isEmpty)
    }

    @Test func discoversChannelsWithOwnAndSharedCalibration() throws {
        let tree = FakeIIOTree()
        tree.addDevice(
            0, name: "bmi160",
            files: [
                "in_accel_x_raw": "10\n", "in_accel_y_raw": "20\n", "in_accel_z_raw": "30\n",
                "in_accel_scale": "0.009582\n", "in_accel_z_scale": "0.5\n", "in_accel_x_offset": "-3\n",
                "in_accel_x_calibbias": "0\n", "in_accel_scale_available": "0.009582 0.019163\n",
                "in_anglvel_x_raw": "1\n", "in_anglvel_y_raw": "2\n", "in_anglvel_z_raw": "3\n",
                "in_illuminance0_input": "12.5\n", "in_temp_input": "30000\n",
                "sampling_frequency": "100\n", "sampling_frequency_available": "25 50 100 200\n",
            ])
        tree.write("bus/iio/devices/trigger0/name", "bmi160-dev0\n")
        let devices = try IIODevice.discover(root: tree.root)
        #expect(devices.map(\.id) == ["iio:device0"])
        let device = try #require(devices.first)
        #expect(device.name == "bmi160")
        #expect(
            device.channels.map(\.name) == [
                "accel_x", "accel_y", "accel_z", "anglvel_x", "anglvel_y", "anglvel_z", "illuminance0", "temp",
            ])
        let accel = device.channels(ofType: "accel")
        #expect(accel.map(\.modifier) == ["x", "y", "z"])
        #expect(accel[0].scalePath == device.path + "/in_accel_scale")
        #expect(accel[2].scalePath == device.path + "/in_accel_z_scale")
        #expect(accel[0].offsetPath == device.path + "/in_accel_x_offset")
        #expect(accel[1].offsetPath == nil)
        let light = try #require(device.channels(ofType: "illuminance").first)
        #expect(light.index == 0 && light.inputPath != nil && light.rawPath == nil)
        #expect(device.samplingFrequencyPath(for: "accel") == device.path + "/sampling_frequency")
        #expect(device.availableSamplingFrequencies(for: "accel") == [25, 50, 100, 200])
        #expect(try device.mountMatrix(for: "accel") == .identity)
        #expect(!device.hasBuffer && !device.hasTrigger && device.scanElements.isEmpty)
        #expect(device.deviceNodePath == tree.root + "/dev/iio:device0")
        #expect(try accel[0].readValue() == (10 - 3) * 0.009582)
        #expect(try accel[2].readValue() == 15)
        #expect(try light.readValue() == 12.5)
    }

    @Test(arguments: ["mount_matrix", "in_mount_matrix", "in_accel_mount_matrix"])
    func findsTheMountMatrixUnderEachName(_ file: String) throws {
        let tree = FakeIIOTree()
        tree.addDevice(0, name: "accel", files: [file: "0, 1, 0; 1, 0, 0; 0, 0, -1\n", "in_accel_x_raw": "1\n"])
        let device = try #require(try IIODevice.discover(root: tree.root).first)
        #expect(try device.mountMatrix(for: "accel").rows == [[0, 1, 0], [1, 0, 0], [0, 0, -1]])
    }

    @Test func rejectsAMountMatrixWithAnAllZeroRow() throws {
        let tree = FakeIIOTree()
        tree.addDevice(0, name: "accel", files: ["mount_matrix": "0, 0, 0; 0, 1, 0; 0, 0, 1\n"])
        let device = try #require(try IIODevice.discover(root: tree.root).first)
        #expect(throws: SensorError.self) { _ = try device.mountMatrix(for: "accel") }
    }

    @Test func discoversBufferTriggerScanElementsAndRanges() throws {
        let tree = FakeIIOTree()
        tree.addDevice(
            1, name: "lis3dh",
            files: [
                "in_accel_x_raw": "0\n", "in_accel_sampling_frequency": "0\n",
                "in_accel_sampling_frequency_available": "[1 1 400]\n",
            ])
        tree.addBuffer(
            1, elements: [("accel_x", 0, "le:s12/16>>4"), ("timestamp", 1, "le:s64/64>>0")], trigger: "lis3dh-dev1")
        tree.addDevice(0, name: "other")
        tree.write("bus/iio/devices/iio_sysfs_trigger/add_trigger", "")
        let devices = try IIODevice.discover(root: tree.root)
        #expect(devices.map(\.id) == ["iio:device0", "iio:device1"])
        let device = devices[1]
        #expect(device.hasBuffer && device.hasTrigger)
        #expect(device.scanElements.map(\.name) == ["accel_x", "timestamp"])
        let format = try device.scanElements[0].readFormat()
        #expect(format.index == 0 && format.type.bits == 12 && format.type.shift == 4)
        #expect(device.samplingFrequencyPath(for: "accel") == device.path + "/in_accel_sampling_frequency")
        #expect(device.availableSamplingFrequencies(for: "accel") == [1, 400])
    }

    @Test func skipsADeviceWithoutAName() throws {
        let tree = FakeIIOTree()
        tree.makeDirectory("bus/iio/devices/iio:device3")
        tree.addDevice(4, name: "als")
        #expect(try IIODevice.discover(root: tree.root).map(\.id) == ["iio:device4"])
    }

    @Test func unreadableRawValueIsAClearError() throws {
        let tree = FakeIIOTree()
        tree.addDevice(0, name: "als", files: ["in_illuminance_raw": "bogus\n", "in_illuminance_scale": "0\n"])
        let channel = try #require(try IIODevice.discover(root: tree.root).first?.channels.first)
        #expect(throws: SensorError.self) { _ = try channel.readValue(calibration: .identity) }
        #expect {
            _ = try channel.readCalibration()
        } throws: { error in
            guard case .valueOutOfRange(let path, _, _) = error as? SensorError else { return false }
            return path.hasSuffix("in_illuminance_scale")
        }
    }
}
