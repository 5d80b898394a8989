/// The rotation from a sensor's axes to the device's axes, from an IIO `mount_matrix` attribute.
///
/// The kernel writes the matrix row by row as `a, b, c; d, e, f; g, h, i`. A reading `v` in the sensor's frame is
/// `M · v` in the device's frame. A sensor without a mount matrix is mounted as-is: the identity.
public struct MountMatrix: Hashable, Sendable, CustomStringConvertible {
    /// The rows of the matrix.
    public let rows: [[Double]]

    /// The identity: the sensor's axes are the device's axes.
    public static let identity = MountMatrix(checkedRows: [[1, 0, 0], [0, 1, 0], [0, 0, 1]])

    private init(checkedRows: [[Double]]) {
        rows = checkedRows
    }

    /// Parses the text of a mount matrix attribute.
    ///
    /// - Parameters:
    ///   - text: The attribute's content, for example `0, 1, 0; -1, 0, 0; 0, 0, 1`.
    ///   - path: The file the text came from, named in the error.
    /// - Throws: ``SensorError/malformedValue(path:text:expected:)`` when the text is not three rows of three
    ///   finite numbers, or a row is all zeros (such a matrix would erase an axis).
    package init(parsing text: String, path: String = "") throws(SensorError) {
        let expected = "a mount matrix \"a, b, c; d, e, f; g, h, i\""
        let rowTexts = text.trimmingWhitespace().split(separator: ";", omittingEmptySubsequences: false)
        var rows: [[Double]] = []
        for rowText in rowTexts {
            let cells = rowText.split(separator: ",", omittingEmptySubsequences: false)
            let row = cells.compactMap { Double(String($0).trimmingWhitespace()) }.filter(\.isFinite)
            guard cells.count == 3, row.count == 3 else {
                throw SensorError.malformedValue(path: path, text: text, expected: expected)
            }
            if row.allSatisfy({ $0 == 0 }) {
                throw SensorError.malformedValue(path: path, text: text, expected: expected + " with no all-zero row")
            }
            rows.append(row)
        }
        guard rows.count == 3 else {
            throw SensorError.malformedValue(path: path, text: text, expected: expected)
        }
        self.rows = rows
    }

    /// Rotates a vector from the sensor's frame into the device's frame.
    public func apply(_ vector: (x: Double, y: Double, z: Double)) -> (x: Double, y: Double, z: Double) {
        func dot(_ row: [Double]) -> Double { row[0] * vector.x + row[1] * vector.y + row[2] * vector.z }
        return (dot(rows[0]), dot(rows[1]), dot(rows[2]))
    }

    /// The matrix in the kernel's text form.
    public var description: String {
        rows.map { row in row.map { Self.format($0) }.joined(separator: ", ") }.joined(separator: "; ")
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
