/// Memory use from `/proc/meminfo`.
///
/// Units: bytes (the kernel reports kB, meaning KiB); ``usedFraction`` is 0...1.
public struct MemoryUsage: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// Usable RAM (`MemTotal`).
    public let totalBytes: UInt64
    /// RAM available for new work without swapping (`MemAvailable`; on kernels before 3.14 free + buffers + cached).
    public let availableBytes: UInt64
    /// RAM unused (`MemFree`).
    public let freeBytes: UInt64
    /// Page cache and buffers (`Cached` + `Buffers`).
    public let cacheBytes: UInt64
    /// Swap space (`SwapTotal`).
    public let swapTotalBytes: UInt64
    /// Swap space unused (`SwapFree`).
    public let swapFreeBytes: UInt64

    /// The fraction of RAM not available, 0...1.
    public let usedFraction: Double

    /// Creates a reading from byte counts; ``usedFraction`` is derived from total and available.
    public init(
        totalBytes: UInt64, availableBytes: UInt64, freeBytes: UInt64, cacheBytes: UInt64, swapTotalBytes: UInt64,
        swapFreeBytes: UInt64
    ) {
        self.totalBytes = totalBytes
        self.availableBytes = availableBytes
        self.freeBytes = freeBytes
        self.cacheBytes = cacheBytes
        self.swapTotalBytes = swapTotalBytes
        self.swapFreeBytes = swapFreeBytes
        usedFraction =
            totalBytes == 0 ? 0 : Double(totalBytes - min(availableBytes, totalBytes)) / Double(totalBytes)
    }

    /// Parses the text of `/proc/meminfo`.
    ///
    /// - Throws: ``SensorError/malformedValue(path:text:expected:)`` when `MemTotal` or `MemFree` is missing or a value
    ///   is not a number of kB.
    package static func parse(_ text: String, path: String = "/proc/meminfo") throws(SensorError) -> MemoryUsage {
        var values: [String: UInt64] = [:]
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let fields = line[line.index(after: colon)...].split(separator: " ")
            guard let number = fields.first.flatMap({ UInt64($0) }), fields.count <= 2,
                fields.count == 1 || fields[1] == "kB"
            else {
                throw SensorError.malformedValue(path: path, text: String(line), expected: "a number of kB")
            }
            let (bytes, overflow) = number.multipliedReportingOverflow(by: fields.count == 2 ? 1024 : 1)
            if overflow {
                throw SensorError.valueOutOfRange(path: path, value: String(line), range: "a 64-bit byte count")
            }
            values[String(line[..<colon])] = bytes
        }
        guard let total = values["MemTotal"], let free = values["MemFree"] else {
            throw SensorError.malformedValue(
                path: path, text: String(text.prefix(64)), expected: "MemTotal and MemFree")
        }
        // Sums saturate instead of wrapping: byte counts near 2^64 are the kernel's (or a fuzzer's) to report.
        let cache = saturatingSum(values["Cached"] ?? 0, values["Buffers"] ?? 0)
        return MemoryUsage(
            totalBytes: total, availableBytes: values["MemAvailable"] ?? min(total, saturatingSum(free, cache)),
            freeBytes: free, cacheBytes: cache, swapTotalBytes: values["SwapTotal"] ?? 0,
            swapFreeBytes: values["SwapFree"] ?? 0)
    }

    private static func saturatingSum(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }

    public var description: String {
        "memory " + UnitFormat.percent(usedFraction) + " used, " + UnitFormat.bytes(availableBytes) + " available of "
            + UnitFormat.bytes(totalBytes)
    }
}
