import Testing
import VigilSensors
import VigilTestSupport

/// Quaternions and rotation matrices, one from the other.
@Suite(.timeLimit(.minutes(5))) struct QuaternionTests {
    @Test(arguments: MotionExpectations.poses) func matrixAndQuaternionAgree(pose: DevicePose) {
        let expected = pose.quaternion
        let quaternion = Quaternion(w: expected.w, x: expected.x, y: expected.y, z: expected.z)
        let matrix = quaternion.rotationMatrix
        for (row, expectedRow) in zip(matrix.rows, pose.matrix) {
            for (value, expectedValue) in zip(row, expectedRow) { #expect(abs(value - expectedValue) < 1e-12) }
        }
        let back = Quaternion(matrix)
        #expect(back.angle(to: quaternion) < 1e-6)
        #expect(back.w >= 0)
        #expect(abs(back.norm - 1) < 1e-12)
    }

    /// Each branch of Shepperd's method: a half turn about x, y and z has w = 0, and the identity has w = 1.
    @Test func everyBranchOfTheConversion() {
        let cases = [
            Quaternion.identity, Quaternion(w: 0, x: 1, y: 0, z: 0), Quaternion(w: 0, x: 0, y: 1, z: 0),
            Quaternion(w: 0, x: 0, y: 0, z: 1), Quaternion(w: 0.1, x: -0.7, y: 0.7, z: 0.1).normalized!,
        ]
        for quaternion in cases {
            #expect(Quaternion(quaternion.rotationMatrix).angle(to: quaternion) < 1e-6, "\(quaternion)")
        }
    }

    @Test func normalizedHasUnitLengthAndANonNegativeW() throws {
        let normalized = try #require(Quaternion(w: -2, x: 0, y: 0, z: 2).normalized)
        #expect(abs(normalized.w - 0.5.squareRoot()) < 1e-15)
        #expect(abs(normalized.z + 0.5.squareRoot()) < 1e-15)
        #expect(Quaternion(w: 0, x: 0, y: 0, z: 0).normalized == nil)
        #expect(Quaternion(w: 1e-200, x: 0, y: 0, z: 0).normalized == nil)
        #expect(Quaternion(w: .infinity, x: 0, y: 0, z: 0).normalized == nil)
        #expect(Quaternion(w: .nan, x: 0, y: 0, z: 0).normalized == nil)
    }
}
