import Testing
import VigilSensors

@Suite(.timeLimit(.minutes(10))) struct ChannelCalibrationTests {
    @Test(arguments: [
        (raw: 100.0, offset: 0.0, scale: 0.5, value: 50.0),
        (raw: 100.0, offset: -20.0, scale: 0.25, value: 20.0),
        (raw: -512.0, offset: 0.0, scale: 0.009582, value: -4.905984),
        (raw: 0.0, offset: 2731.5, scale: 100.0, value: 273_150.0),
    ])
    func appliesOffsetThenScale(_ example: (raw: Double, offset: Double, scale: Double, value: Double)) throws {
        let calibration = try ChannelCalibration(scale: example.scale, offset: example.offset)
        #expect(abs(calibration.apply(example.raw) - example.value) < 1e-9)
    }

    @Test func identityReturnsTheRawValue() {
        #expect(ChannelCalibration.identity.apply(-919) == -919)
    }

    @Test(arguments: [0.0, -0.0, Double.nan, Double.infinity])
    func rejectsAZeroOrNonFiniteScale(_ scale: Double) {
        #expect {
            _ = try ChannelCalibration(scale: scale, path: "/sys/in_accel_scale")
        } throws: { error in
            guard case .valueOutOfRange(let path, _, let range) = error as? SensorError else { return false }
            return path == "/sys/in_accel_scale" && range.contains("non-zero")
        }
    }
}
