import Testing
import VigilSensors

@Suite(.timeLimit(.minutes(10))) struct MountMatrixTests {
    @Test func parsesTheKernelFormatAndRotates() throws {
        let matrix = try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1\n")
        #expect(matrix.rows == [[0, 1, 0], [-1, 0, 0], [0, 0, 1]])
        let rotated = matrix.apply((x: 1, y: 2, z: 3))
        #expect(rotated.x == 2 && rotated.y == -1 && rotated.z == 3)
        #expect(matrix.description == "0, 1, 0; -1, 0, 0; 0, 0, 1")
    }

    @Test func parsesFractionsAndTightSpacing() throws {
        let matrix = try MountMatrix(parsing: "0.5,0,0;0,-0.25,0;0,0,1")
        #expect(matrix.apply((x: 4, y: 4, z: 4)) == (x: 2, y: -1, z: 4))
    }

    @Test func identityLeavesVectorsAlone() {
        let vector = MountMatrix.identity.apply((x: 1.5, y: -2, z: 9.8))
        #expect(vector == (x: 1.5, y: -2, z: 9.8))
    }

    static let malformed = [
        "", "1, 0, 0; 0, 1, 0", "1, 0, 0; 0, 1, 0; 0, 0, 1; 0, 0, 1", "1, 0; 0, 1, 0; 0, 0, 1",
        "1, 0, 0, 0; 0, 1, 0; 0, 0, 1", "a, 0, 0; 0, 1, 0; 0, 0, 1", "1, 0, 0; 0, 1, nan; 0, 0, 1",
        "1,, 0; 0, 1, 0; 0, 0, 1",
    ]

    @Test(arguments: malformed)
    func rejectsMalformedText(_ text: String) {
        #expect(throws: SensorError.self) { _ = try MountMatrix(parsing: text, path: "mount_matrix") }
    }

    @Test func rejectsAnAllZeroRow() {
        #expect {
            _ = try MountMatrix(parsing: "1, 0, 0; 0, 0, 0; 0, 0, 1", path: "/sys/m")
        } throws: { error in
            guard case .malformedValue(let path, _, let expected) = error as? SensorError else { return false }
            return path == "/sys/m" && expected.contains("all-zero")
        }
    }
}
