/// The seed corpora of the fuzz targets, `Fuzz/Corpus/TARGET/NAME`, for tests that replay each input through the
/// parser its fuzzer feeds and expect a given result or error.
///
/// `Fuzz/` stays the one place for random inputs (`Fuzz/run.sh TARGET SECONDS`); the tests replay what is known.
package enum FuzzCorpus {
    /// `Fuzz/Corpus` in this checkout.
    package static let directory: String = {
        let repository = String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
        return "/\(repository)/Fuzz/Corpus"
    }()

    /// The input `name` of `target`'s corpus, byte for byte; nil when it cannot be read.
    package static func input(_ target: String, _ name: String) -> [UInt8]? {
        readWholeBytes("\(directory)/\(target)/\(name)")
    }

    /// The names of `target`'s corpus inputs, sorted.
    package static func names(_ target: String) -> [String] {
        (ProcessProbe.entries(of: "\(directory)/\(target)") ?? []).sorted()
    }
}
