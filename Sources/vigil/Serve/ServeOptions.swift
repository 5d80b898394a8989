import VigilPrometheus
import VigilSensors

/// `vigil serve`'s settings, read from the shared command line (``CommandSpec/serve`` lists the options).
struct ServeOptions {
    var listen: ListenAddress?
    var textfile: String?
    /// TLS and basic authentication, from `--web-config`.
    var web = MetricsServer.WebConfiguration()
    var interval: Duration = .seconds(15)
    var options: SourceCatalog.Options
    /// Positional words after `serve`: sources and their arguments.
    var sources: [String]

    /// Reads the settings from the parsed command line.
    ///
    /// - Throws: ``ToolError`` (status 2) for a bad address, duration or root, or `--interval` without `--textfile`;
    ///   (status 1) for a web configuration file that cannot be read or used.
    init(_ arguments: Arguments) throws(ToolError) {
        if let text = arguments.value("--listen") {
            do {
                listen = try ListenAddress(parsing: text)
            } catch {
                throw .usage("--listen: \(error)")
            }
        }
        textfile = arguments.value("--textfile")
        if let path = arguments.value("--web-config") {
            do {
                web = try MetricsServer.WebConfiguration(contentsOfFile: path)
            } catch {
                throw ToolError(message: "--web-config: \(error)", status: 1)
            }
        }
        if let interval = try arguments.duration("--interval") {
            guard textfile != nil else { throw .usage("--interval applies to --textfile; give both") }
            guard interval >= .milliseconds(1) else { throw .usage("--interval must be at least 1ms") }
            self.interval = interval
        }
        options = try arguments.sourceOptions()
        sources = arguments.positional
    }
}
