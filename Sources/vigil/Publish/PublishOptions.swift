import Foundation
import VigilMQTT

/// `vigil publish`'s settings, read from the shared command line (``CommandSpec/publish`` lists the options).
struct PublishOptions {
    var host = ""
    var port: UInt16 = 1883
    /// TLS settings, for an `mqtts://` broker.
    var tls: MQTTPublisher.Configuration.TLS?
    var prefix: String?
    var qos = MQTTQoS.atMostOnce
    var username: String?
    var passwordFile: String?
    var homeAssistant = false
    var keepAlive = Duration.seconds(30)
    /// `--interval DURATION`: how often every polled source reads.
    var interval: Duration?
    /// `--interval SOURCE=DURATION`: how often one source reads, over ``interval``.
    var intervals: [String: Duration] = [:]

    /// Reads and checks the options.
    ///
    /// - Throws: ``ToolError`` (a usage error) for a missing or malformed value.
    init(_ arguments: Arguments) throws(ToolError) {
        guard let broker = arguments.value("--broker") else {
            throw .usage("vigil publish needs --broker mqtt://HOST[:PORT] or mqtts://HOST[:PORT]")
        }
        let secure: Bool
        (host, port, secure) = try Self.parse(broker: broker)
        let caFile = arguments.value("--ca-file")
        let certificateFile = arguments.value("--cert-file")
        let keyFile = arguments.value("--key-file")
        if secure {
            tls = MQTTPublisher.Configuration.TLS(caFile: caFile, certificateFile: certificateFile, keyFile: keyFile)
            if (certificateFile == nil) != (keyFile == nil) { throw .usage("--cert-file and --key-file go together") }
        } else if let option = [("--ca-file", caFile), ("--cert-file", certificateFile), ("--key-file", keyFile)]
            .first(where: { $0.1 != nil })?.0
        {
            throw .usage("\(option) is for TLS: give the broker as mqtts://HOST[:PORT]")
        }
        prefix = arguments.value("--topic")
        if let value = arguments.value("--qos") {
            guard let number = UInt8(value), let qos = MQTTQoS(rawValue: number) else {
                throw .usage("--qos takes 0 or 1, not \"\(value)\"")
            }
            self.qos = qos
        }
        username = arguments.value("--username")
        passwordFile = arguments.value("--password-file")
        homeAssistant = arguments.flag("--homeassistant")
        if let value = arguments.value("--keep-alive") {
            guard let seconds = Int(value), (1...65_535).contains(seconds) else {
                throw .usage("--keep-alive takes whole seconds from 1 to 65535, not \"\(value)\"")
            }
            keepAlive = .seconds(seconds)
        }
        for text in arguments.values("--interval") {
            if let equals = text.firstIndex(of: "=") {
                intervals[String(text[..<equals])] = try Arguments.duration(
                    String(text[text.index(after: equals)...]), option: "--interval")
            } else {
                interval = try Arguments.duration(text, option: "--interval")
            }
        }
        if passwordFile != nil && username == nil { throw .usage("--password-file needs --username") }
        if let prefix, prefix.isEmpty || prefix.contains("+") || prefix.contains("#") || prefix.hasSuffix("/") {
            throw .usage("--topic \"\(prefix)\" is not a topic prefix (not empty, no + or #, no trailing /)")
        }
    }

    /// The environment variable a password may come from instead of a file.
    static let passwordVariable = "VIGIL_MQTT_PASSWORD"

    /// The password: the first line of ``passwordFile``, without its line break, else `VIGIL_MQTT_PASSWORD` when a
    /// user name is given; never a command-line argument, which every user of the machine can read in `ps`.
    ///
    /// - Throws: ``ToolError`` (status 1) when the file cannot be read.
    func password() throws(ToolError) -> [UInt8]? {
        guard let passwordFile else {
            guard username != nil, let value = getenv(Self.passwordVariable) else { return nil }
            return Array(String(cString: value).utf8)
        }
        guard let data = FileManager.default.contents(atPath: passwordFile) else {
            throw ToolError(message: "cannot read the password file \(passwordFile)", status: 1)
        }
        let line = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).first ?? []
        return Array(line.last == UInt8(ascii: "\r") ? line.dropLast() : line)
    }

    /// `mqtt://HOST[:PORT]` (port 1883 by default) or `mqtts://HOST[:PORT]` (TLS, port 8883), with an IPv6 address
    /// in brackets.
    static func parse(broker: String) throws(ToolError) -> (host: String, port: UInt16, secure: Bool) {
        let secure = broker.hasPrefix("mqtts://")
        guard secure || broker.hasPrefix("mqtt://") else {
            throw .usage("--broker takes mqtt://HOST[:PORT] or mqtts://HOST[:PORT], not \"\(broker)\"")
        }
        var rest = Substring(broker.dropFirst(secure ? "mqtts://".count : "mqtt://".count))
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        var host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw .usage("--broker \"\(broker)\": missing ]") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .usage("--broker \"\(broker)\": expected :PORT after ]") }
                portText = after.dropFirst()
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            host = rest
        }
        guard !host.isEmpty, !host.contains("/"), !host.contains("@") else {
            throw .usage("--broker \"\(broker)\": expected \(secure ? "mqtts" : "mqtt")://HOST[:PORT]")
        }
        var port: UInt16 = secure ? 8883 : 1883
        if let portText {
            guard let number = UInt16(portText), number > 0 else {
                throw .usage("--broker \"\(broker)\": the port must be 1 to 65535")
            }
            port = number
        }
        return (String(host), port, secure)
    }
}
