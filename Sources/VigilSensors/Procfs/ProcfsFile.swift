/// Availability of a procfs file, shared by the procfs sources.
enum ProcfsFile {
    /// Whether the file at `path` can be read; `what` names it for the reason.
    static func availability(_ path: String, what: String) -> Availability {
        do {
            _ = try SysfsFile.readText(path)
            return .available
        } catch .notFound {
            return .unavailable(
                reason: .kernelLacksInterface, detail: "no \(path): the kernel does not provide \(what)")
        } catch .permissionDenied {
            return .unavailable(reason: .permissionDenied, detail: "\(path) cannot be read")
        } catch {
            return .unavailable(reason: .kernelLacksInterface, detail: error.description)
        }
    }
}
