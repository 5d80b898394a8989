import Foundation
import Glibc
import Testing
import VigilTestSupport

/// `vigil get`, `watch` and `top` on the compass and the attitude: fake HID sensor hub channels, a fused pair, and the
/// real accelerometer capture played through a FIFO; `--declination` checked like every option.
@Suite(.timeLimit(.minutes(10))) struct VigilMotionCommandTests {
    /// A tree with a HID hub's heading channel (123.4°) and quaternion (a quarter turn counter-clockwise).
    static func hubTree() -> FakeIIOTree {
        let tree = FakeIIOTree()
        tree.addHeadingChannel(0, raw: "1234")
        tree.addQuaternionChannel(1, raw: "0 0 7071068 7071068", scale: "0.0000001")
        return tree
    }

    func run(_ arguments: [String]) async throws -> ChildProcess {
        let vigil = try ChildProcess(vigil: arguments)
        #expect(await vigil.waitForExit())
        return vigil
    }

    @Test func getCompassPrintsTheHeadingAndTheTrueHeadingWithADeclination() async throws {
        let tree = Self.hubTree()
        let magnetic = try await run(["--sys-root", tree.root, "get", "compass"])
        #expect(magnetic.exitStatus == 0, "\(magnetic.standardError)")
        #expect(magnetic.standardOutput == "compass: 123.4° ESE magnetic (device channel)\n")
        let corrected = try await run(["--sys-root", tree.root, "get", "compass", "--declination", "-130"])
        #expect(corrected.standardOutput == "compass: 123.4° ESE magnetic, 353.4° N true (device channel)\n")
        let json = try await run(["--sys-root", tree.root, "get", "compass", "--json", "--declination=12.5"])
        let reading = try #require(try VigilOutput.objects(json.standardOutput).first)
        #expect(reading["source"] as? String == "compass" && reading["status"] as? String == "ok")
        #expect(
            abs((reading["trueHeading"] as? Double ?? 0) - 135.9) < 1e-9 && reading["declination"] as? Double == 12.5)
        #expect(reading["method"] as? String == "device" && reading["tiltCompensated"] as? Bool == true)
        #expect(reading["fieldStrength"] == nil && reading["uncalibrated"] as? Bool == false)
    }

    @Test(arguments: ["200", "-180.5", "east", "nan", "inf", ""])
    func anImpossibleDeclinationIsAUsageError(declination: String) async throws {
        let tree = Self.hubTree()
        let vigil = try await run(["--sys-root", tree.root, "get", "compass", "--declination", declination])
        #expect(vigil.exitStatus == 2)
        #expect(vigil.standardError.contains("--declination needs degrees from -180 (west) to 180 (east)"))
        #expect(vigil.standardOutput.isEmpty)
    }

    @Test func getAttitudeJSONCarriesTheQuaternionTheMatrixAndTheAngles() async throws {
        let tree = Self.hubTree()
        let vigil = try await run(["--sys-root", tree.root, "get", "attitude", "--json"])
        #expect(vigil.exitStatus == 0, "\(vigil.standardError)")
        let reading = try #require(try VigilOutput.objects(vigil.standardOutput).first)
        #expect(reading["source"] as? String == "attitude" && reading["method"] as? String == "device")
        let quaternion = try #require(reading["quaternion"] as? [String: Double])
        #expect(
            abs((quaternion["w"] ?? 0) - 0.5.squareRoot()) < 1e-9
                && abs((quaternion["z"] ?? 0) - 0.5.squareRoot()) < 1e-9)
        let matrix = try #require(reading["rotationMatrix"] as? [[Double]])
        #expect(matrix.count == 3 && matrix.allSatisfy { $0.count == 3 })
        #expect(abs(matrix[0][1] + 1) < 1e-9, "east is -y: the top edge points west")
        #expect(abs((reading["yaw"] as? Double ?? 0) - 90) < 1e-6)
        #expect(abs(reading["pitch"] as? Double ?? 1) < 1e-6 && abs(reading["roll"] as? Double ?? 1) < 1e-6)
        #expect(VigilOutput.isRFC3339Microseconds(reading["time"]))
    }

    /// The real capture (the device upright in iio-sensor-proxy's `normal` orientation) through the device node,
    /// fused with a polled magnetometer: a pitch of +66.55°.
    @Test(.enabled(if: FakeIIOTree.captures != nil, "shared/testdata/iio is not beside the checkout"))
    func watchAttitudePlaysTheRealCapture() async throws {
        let tree = FakeIIOTree()
        tree.addCaptureAccelerometer(0)
        tree.addMagnetometer(1, reading: DevicePose.field)
        let vigil = try ChildProcess(vigil: ["--sys-root", tree.root, "watch", "attitude", "--json"])
        #expect(await eventually { vigil.standardError.contains("watching") }, "\(vigil.standardError)")
        let scan = try FakeIIOTree.readCapture("orientation-normal.bin")
        let writer = tree.writeToFIFO("dev/iio:device0", [], closing: false)
        defer { close(writer) }
        // Until the magnetometer's first poll has come, a scan has no field to be fused with: send it again.
        let sending = Repeating(every: .milliseconds(100)) {
            _ = scan.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
        }
        let fused = await eventually(within: 30) { vigil.standardOutput.contains(#""pitch""#) }
        sending.stop()
        #expect(fused, "\(vigil.standardOutput)\(vigil.standardError)")
        vigil.signal(SIGINT)
        #expect(await vigil.waitForExit())
        let reading = try #require(try VigilOutput.objects(vigil.standardOutput).first { $0["pitch"] != nil })
        #expect(abs((reading["pitch"] as? Double ?? 0) - 66.555) < 0.01, "\(reading)")
        #expect(abs((reading["roll"] as? Double ?? 0) - 14.978) < 0.01, "\(reading)")
        #expect(reading["method"] as? String == "fused" && reading["uncalibrated"] as? Bool == false)
    }

    /// `vigil top` plots the heading on a row of its own, on a 0–360° scale.
    @Test(.enabled(if: TmuxSession.executable != nil, "tmux is not installed (.ci/setup installs it)"))
    func topShowsTheHeading() async throws {
        let machine = FakeMachine.equipped()
        FakeIIOTree(at: machine.sys.root).addHeadingChannel(6, raw: "1234")
        let top = try await TopCommandTests.Fixture(machine: machine, arguments: ["--declination", "10"])
        await top.expectScreen { screen in
            screen.split(separator: "\n").contains { $0.hasPrefix(" heading ") && $0.contains("133.4° SE true") }
        }
        await top.quit()
    }
}
