import VigilSensors

extension MetricsServer.WebConfiguration {
    /// Reads a web configuration file in node_exporter's format (the Prometheus exporter toolkit's):
    ///
    /// ```yaml
    /// tls_server_config:
    ///   cert_file: server.crt      # relative paths are relative to this file's directory
    ///   key_file: server.key
    ///   client_auth_type: RequireAndVerifyClientCert   # optional, with client_ca_file
    ///   client_ca_file: clients.crt
    ///   min_version: TLS12         # optional: TLS10 to TLS13; max_version likewise
    /// basic_auth_users:
    ///   prometheus: $2b$10$…       # bcrypt hashes, as `htpasswd -nBC 10 prometheus` prints them
    /// ```
    ///
    /// As the toolkit does, it refuses unknown keys rather than ignoring a setting it would not apply;
    /// `http_server_config` may only hold `http2` (the server speaks HTTP/1.1 either way).
    ///
    /// - Throws: ``MetricsServerError/webConfiguration(path:reason:)`` naming the line or the setting that is wrong.
    public init(contentsOfFile path: String) throws(MetricsServerError) {
        let text: String
        do {
            text = try SysfsFile.readText(path, limit: 1 << 20)
        } catch {
            throw .webConfiguration(path: path, reason: "\(error)")
        }
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        try self.init(parsing: text, path: path, directory: directory.isEmpty ? "/" : directory)
    }

    /// Reads the file's `text` (see ``init(contentsOfFile:)``); `path` names it in errors, and relative paths in it
    /// are taken from `directory`.
    package init(parsing text: String, path: String, directory: String) throws(MetricsServerError) {
        let root: SimpleYAML.Node
        do {
            root = try SimpleYAML.parse(text)
        } catch {
            throw .webConfiguration(path: path, reason: "line \(error.line): \(error.reason)")
        }
        do throws(WebConfigurationFileError) {
            self = try Self(root, directory: directory)
        } catch {
            throw .webConfiguration(path: path, reason: error.reason)
        }
    }

    private init(_ root: SimpleYAML.Node, directory: String) throws(WebConfigurationFileError) {
        self.init()
        for (key, value, line) in try root.entries(of: "the file") {
            switch key {
            case "tls_server_config":
                if value != .null { tls = try MetricsServer.TLS(value, directory: directory) }
            case "basic_auth_users":
                for (user, hash, line) in try value.entries(of: key) {
                    guard case .scalar(let hash) = hash, Self.isBcrypt(hash) else {
                        throw WebConfigurationFileError(
                            "line \(line): basic_auth_users.\(user) is not a bcrypt hash ($2b$…, as htpasswd -nBC 10 "
                                + "\(user) prints)")
                    }
                    basicAuthUsers[user] = hash
                }
            case "http_server_config":
                for (setting, _, line) in try value.entries(of: key) where setting != "http2" {
                    throw WebConfigurationFileError("line \(line): http_server_config.\(setting) is not supported")
                }
            default:
                throw WebConfigurationFileError("line \(line): unknown setting \(key)")
            }
        }
    }

    /// `$2a$`, `$2b$` or `$2y$`, a two-digit cost, and 53 characters of salt and hash.
    static func isBcrypt(_ hash: String) -> Bool {
        let bytes = Array(hash.utf8)
        guard bytes.count == 60, hash.hasPrefix("$2"), [UInt8(ascii: "a"), 0x62, 0x79].contains(bytes[2]),
            bytes[3] == UInt8(ascii: "$"), bytes[6] == UInt8(ascii: "$")
        else { return false }
        let alphabet = Set("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        return bytes[4...5].allSatisfy { $0 >= 0x30 && $0 <= 0x39 } && bytes[7...].allSatisfy(alphabet.contains)
    }
}

extension MetricsServer.TLS {
    fileprivate init(_ node: SimpleYAML.Node, directory: String) throws(WebConfigurationFileError) {
        var settings: [String: (value: String, line: Int)] = [:]
        for (key, value, line) in try node.entries(of: "tls_server_config") {
            guard
                ["cert_file", "key_file", "client_auth_type", "client_ca_file", "min_version", "max_version"].contains(
                    key)
            else {
                throw WebConfigurationFileError("line \(line): tls_server_config.\(key) is not supported")
            }
            guard case .scalar(let text) = value else {
                throw WebConfigurationFileError("line \(line): tls_server_config.\(key) needs a value")
            }
            settings[key] = (text, line)
        }
        func path(_ key: String) -> String? {
            settings[key].map { $0.value.hasPrefix("/") ? $0.value : directory + "/" + $0.value }
        }
        guard let certificate = path("cert_file"), let key = path("key_file") else {
            throw WebConfigurationFileError("tls_server_config needs both cert_file and key_file")
        }
        self.init(certificateFile: certificate, keyFile: key, clientCAFile: path("client_ca_file"))
        if let (name, line) = settings["client_auth_type"] {
            guard let type = ClientAuthType(rawValue: name) else {
                let known = ClientAuthType.allCases.map(\.rawValue).joined(separator: ", ")
                throw WebConfigurationFileError("line \(line): client_auth_type \(name) is not one of \(known)")
            }
            clientAuthType = type
        }
        if clientAuthType.verifies && clientCAFile == nil {
            throw WebConfigurationFileError("client_auth_type \(clientAuthType.rawValue) needs a client_ca_file")
        }
        for key in ["min_version", "max_version"] {
            guard let (name, line) = settings[key] else { continue }
            guard let version = Version(rawValue: name) else {
                throw WebConfigurationFileError("line \(line): \(key) \(name) is not one of TLS10, TLS11, TLS12, TLS13")
            }
            if key == "min_version" { minimumVersion = version } else { maximumVersion = version }
        }
    }
}

extension SimpleYAML.Node {
    /// The entries of a mapping (none for null), or an error naming `what` should have been one.
    fileprivate func entries(of what: String) throws(WebConfigurationFileError) -> [(
        key: String, value: SimpleYAML.Node, line: Int
    )] {
        switch self {
        case .mapping(let entries): return entries
        case .null: return []
        case .scalar: throw WebConfigurationFileError("\(what) must be a mapping of settings")
        }
    }
}

/// What is wrong with a web configuration file's content.
private struct WebConfigurationFileError: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
