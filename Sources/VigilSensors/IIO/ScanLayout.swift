/// Where each enabled channel sits in one scan read from `/dev/iio:deviceN`.
///
/// The kernel packs the enabled scan elements in order of their `index`; each element starts at an offset aligned to
/// its own size (storage bytes × repeat, or the storage bytes of one value when that product is not a power of two),
/// and the whole scan is padded to a multiple of the largest alignment, so the next scan starts aligned too. This is
/// `iio_compute_scan_bytes()` in the kernel's `industrialio-buffer.c`.
package struct ScanLayout: Hashable, Sendable {
    /// One enabled channel and where it sits.
    package struct Element: Hashable, Sendable {
        /// The channel's scan element name without `in_`, for example `accel_x` or `timestamp`.
        package let name: String
        /// The channel's `scan_elements/*_index`.
        package let index: Int
        /// The channel's storage format.
        package let type: ScanElementType
        /// The byte offset of the element in a scan.
        package let offset: Int
    }

    /// The elements in scan order (by index).
    package let elements: [Element]
    /// The size of one scan in bytes, padding included.
    package let scanBytes: Int

    /// Lays out the given channels.
    ///
    /// - Parameter channels: Each enabled channel's name, index and type, in any order.
    /// - Throws: ``SensorError/malformedValue(path:text:expected:)`` when two channels share an index or there
    ///   is no channel at all.
    package init(channels: [(name: String, index: Int, type: ScanElementType)]) throws(SensorError) {
        let sorted = channels.sorted { $0.index < $1.index }
        guard !sorted.isEmpty else {
            throw SensorError.malformedValue(path: "scan_elements", text: "", expected: "at least one enabled channel")
        }
        var elements: [Element] = []
        var offset = 0
        var largest = 1
        for channel in sorted {
            if let last = elements.last, last.index == channel.index {
                throw SensorError.malformedValue(
                    path: "scan_elements", text: "\(last.name) and \(channel.name) at \(channel.index)",
                    expected: "distinct scan indices")
            }
            let alignment = Self.alignment(of: channel.type)
            offset = (offset + alignment - 1) / alignment * alignment
            elements.append(Element(name: channel.name, index: channel.index, type: channel.type, offset: offset))
            offset += channel.type.totalBytes
            largest = max(largest, alignment)
        }
        self.elements = elements
        self.scanBytes = (offset + largest - 1) / largest * largest
    }

    /// The element named `name`, if enabled.
    package func element(named name: String) -> Element? {
        elements.first { $0.name == name }
    }

    private static func alignment(of type: ScanElementType) -> Int {
        let total = type.totalBytes
        return total & (total - 1) == 0 ? total : type.storageBytes
    }
}
