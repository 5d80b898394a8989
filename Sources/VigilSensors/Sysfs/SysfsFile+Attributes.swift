extension SysfsFile {
    /// Reads every attribute named in `names` that exists in `directory`, keyed by name.
    ///
    /// A missing attribute is left out (drivers expose different subsets); any other failure is thrown. If the
    /// directory itself has gone, throws ``SensorError/vanished(path:)``.
    static func readAttributes(in directory: String, names: [String]) throws(SensorError) -> [String: String] {
        var values: [String: String] = [:]
        for name in names {
            do {
                values[name] = try readText(directory + "/" + name)
            } catch .notFound {
                if !exists(directory) { throw SensorError.vanished(path: directory) }
            }
        }
        return values
    }
}
