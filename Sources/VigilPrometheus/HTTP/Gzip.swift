import CLinuxSupport

/// gzip for responses, through the system's zlib loaded at run time (see `VigilGzip.c`): where zlib is missing,
/// responses simply go out uncompressed.
enum Gzip {
    /// `bytes` as one gzip member, or nil when zlib is unavailable or fails.
    static func compress(_ bytes: [UInt8]) -> [UInt8]? {
        let bound = vigil_gzip_bound(bytes.count)
        guard bound > 0 else { return nil }
        var output = [UInt8](repeating: 0, count: bound)
        let count = bytes.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer {
                vigil_gzip(source.baseAddress, source.count, $0.baseAddress, $0.count)
            }
        }
        guard count > 0 else { return nil }
        output.removeSubrange(count...)
        return output
    }

    /// Whether an `Accept-Encoding` value accepts gzip (RFC 9110 §12.5.3): `gzip` (or `x-gzip`), else `*`, listed
    /// with a weight above 0.
    static func isAccepted(by acceptEncoding: String?) -> Bool {
        guard let acceptEncoding else { return false }
        var star: Bool?
        for item in acceptEncoding.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.filter { $0 != " " && $0 != "\t" }.lowercased() }
            guard let coding = parts.first else { continue }
            let weight = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if coding == "gzip" || coding == "x-gzip" { return weight > 0 }
            if coding == "*" { star = weight > 0 }
        }
        return star ?? false
    }
}
