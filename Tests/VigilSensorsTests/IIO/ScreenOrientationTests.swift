import Glibc
import Testing
import VigilSensors

@Suite(.timeLimit(.minutes(10))) struct ScreenOrientationTests {
    /// An acceleration of 1 g tilted by `portrait` degrees towards +x or `landscape` degrees towards +y.
    static func tilted(portrait: Double = 0, landscape: Double = 0) -> (x: Double, y: Double, z: Double) {
        let g = 9.80665
        if portrait != 0 {
            let radians = portrait * Double.pi / 180
            return (g * sin(radians), 0, g * cos(radians))
        }
        let radians = landscape * Double.pi / 180
        return (0, g * sin(radians), g * cos(radians))
    }

    struct Case: Sendable, CustomStringConvertible {
        let portrait: Double
        let landscape: Double
        let previous: ScreenOrientation
        let expected: ScreenOrientation
        var description: String { "portrait \(portrait)° landscape \(landscape)° after \(previous)" }
    }

    static let cases: [Case] = [
        Case(portrait: 0, landscape: 0, previous: .undefined, expected: .undefined),
        Case(portrait: 0, landscape: 0, previous: .leftUp, expected: .leftUp),
        Case(portrait: 35, landscape: 0, previous: .undefined, expected: .undefined),
        Case(portrait: 35.4, landscape: 0, previous: .normal, expected: .normal),
        Case(portrait: 35.6, landscape: 0, previous: .normal, expected: .leftUp),
        Case(portrait: 36, landscape: 0, previous: .undefined, expected: .leftUp),
        Case(portrait: -35, landscape: 0, previous: .bottomUp, expected: .bottomUp),
        Case(portrait: -36, landscape: 0, previous: .undefined, expected: .rightUp),
        Case(portrait: -90, landscape: 0, previous: .leftUp, expected: .rightUp),
        Case(portrait: 0, landscape: 35, previous: .undefined, expected: .undefined),
        Case(portrait: 0, landscape: 36, previous: .undefined, expected: .bottomUp),
        Case(portrait: 0, landscape: -36, previous: .leftUp, expected: .normal),
        Case(portrait: 0, landscape: -35, previous: .leftUp, expected: .leftUp),
        Case(portrait: 0, landscape: -90, previous: .bottomUp, expected: .normal),
        Case(portrait: 0, landscape: 120, previous: .normal, expected: .bottomUp),
        Case(portrait: 0, landscape: 20, previous: .normal, expected: .normal),
        Case(portrait: 20, landscape: 0, previous: .rightUp, expected: .rightUp),
    ]

    @Test(arguments: cases)
    func followsTheThresholdRule(_ example: Case) {
        let acceleration = Self.tilted(portrait: example.portrait, landscape: example.landscape)
        #expect(ScreenOrientation.from(acceleration: acceleration, previous: example.previous) == example.expected)
    }

    @Test func keepsThePreviousOrientationOnTheBorderOfTwo() {
        // Both tilts are about 43.5°: beyond the threshold on both axes, so neither orientation wins.
        let g = 9.80665
        let border = (x: g * 0.6, y: g * 0.6, z: g * 0.2)
        #expect(ScreenOrientation.from(acceleration: border, previous: .normal) == .normal)
        #expect(ScreenOrientation.from(acceleration: border, previous: .undefined) == .undefined)
    }

    @Test func hysteresisHoldsUntilTheOtherSideIsClearlyReached() {
        var orientation = ScreenOrientation.undefined
        var history: [ScreenOrientation] = []
        for landscape in stride(from: -90.0, through: 0, by: 10) {
            orientation = .from(acceleration: Self.tilted(landscape: landscape), previous: orientation)
            history.append(orientation)
        }
        for portrait in stride(from: 10.0, through: 90, by: 10) {
            orientation = .from(acceleration: Self.tilted(portrait: portrait), previous: orientation)
            history.append(orientation)
        }
        // normal from -90° to -40°, kept through -30…0 and portrait 10…30, left-up from 40°.
        #expect(history == Array(repeating: .normal, count: 13) + Array(repeating: .leftUp, count: 6))
    }

    @Test func zeroAndNonFiniteInputKeepThePreviousOrientation() {
        #expect(ScreenOrientation.from(acceleration: (0, 0, 0), previous: .rightUp) == .rightUp)
        #expect(ScreenOrientation.from(acceleration: (.nan, 1, 0), previous: .normal) == .normal)
    }
}
