extension Availability {
    /// Whether `read` succeeds: available, or unavailable with a reason mapped from its ``SensorError``.
    ///
    /// A missing path gives `missing` (the kind of absence and the words for it), a refused one
    /// ``UnavailabilityReason/permissionDenied``, anything else ``UnavailabilityReason/kernelLacksInterface`` with
    /// the error's description.
    static func checking(
        _ path: String, missing: (reason: UnavailabilityReason, detail: String),
        read: (String) throws(SensorError) -> Void = { (path) throws(SensorError) in _ = try SysfsFile.readText(path) }
    ) -> Availability {
        do {
            try read(path)
            return .available
        } catch .notFound {
            return .unavailable(reason: missing.reason, detail: missing.detail)
        } catch .permissionDenied {
            return .unavailable(reason: .permissionDenied, detail: "\(path) cannot be read")
        } catch {
            return .unavailable(reason: .kernelLacksInterface, detail: error.description)
        }
    }

    /// Availability of a procfs file; `what` names what the kernel lacks when it is missing.
    ///
    /// The file is read as its source reads it (``SysfsFile/readProcfsText(_:)``, up to 4 MiB), not as an attribute:
    /// a `/proc/stat` of 64 cores and 12,000 interrupt counters is 85 KB, past the 64 KiB attribute limit.
    static func procfs(_ path: String, what: String) -> Availability {
        checking(
            path, missing: (.kernelLacksInterface, "no \(path): the kernel does not provide \(what)"),
            read: { (path) throws(SensorError) in _ = try SysfsFile.readProcfsText(path) })
    }
}
