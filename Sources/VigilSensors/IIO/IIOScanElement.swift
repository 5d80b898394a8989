/// One entry of a device's `scan_elements` directory: a channel that buffered mode can capture.
package struct IIOScanElement: Hashable, Sendable {
    /// The element's name without `in_`: `accel_x`, `timestamp`.
    package let name: String
    /// `scan_elements/in_<name>_en`.
    package let enablePath: String
    /// `scan_elements/in_<name>_index`.
    package let indexPath: String
    /// `scan_elements/in_<name>_type`.
    package let typePath: String

    init(name: String, directory: String) {
        self.name = name
        enablePath = "\(directory)/in_\(name)_en"
        indexPath = "\(directory)/in_\(name)_index"
        typePath = "\(directory)/in_\(name)_type"
    }

    /// Reads the element's index and storage type.
    ///
    /// - Throws: ``SensorError`` when a file is missing or its text does not parse.
    package func readFormat() throws(SensorError) -> (index: Int, type: ScanElementType) {
        let index = try SysfsFile.readInteger(indexPath)
        let text = try SysfsFile.readText(typePath)
        return (Int(index), try ScanElementType(parsing: text, path: typePath))
    }
}
