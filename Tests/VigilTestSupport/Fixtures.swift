/// The data files of `Tests/Fixtures` (real devices' data; their sources and licences are in the repository's
/// `NOTICE`).
package enum Fixtures {
    /// `Tests/Fixtures` in this checkout.
    package static let directory: String = {
        let repository = String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
        return "/\(repository)/Tests/Fixtures"
    }()

    /// The bytes of `Tests/Fixtures/<relativePath>`; nil when it cannot be read.
    package static func bytes(_ relativePath: String) -> [UInt8]? {
        readWholeBytes(directory + "/" + relativePath)
    }

    /// The real EDID `Tests/Fixtures/edid/<name>`, for example `monitor-dell-u2719d-dp-cta.bin`.
    package static func edid(_ name: String) -> [UInt8]? {
        bytes("edid/" + name)
    }
}
