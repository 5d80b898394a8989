extension SourceCatalog {
    /// The `wifi` source: wireless interfaces, their connection and its signal through nl80211, in
    /// ``Options/networkNamespace`` when set.
    static var wifiEntries: [Entry] {
        [
            .source(id: "wifi", name: "Wi-Fi interfaces, connection and signal (nl80211)") { options, _ in
                guard let client = options.wifiClient else {
                    return WiFiMonitor(namespace: options.networkNamespacePath, eventLoop: options.eventLoop)
                }
                return WiFiMonitor(
                    namespace: options.networkNamespacePath, updateInterval: .seconds(5), eventLoop: options.eventLoop,
                    joinsGroups: false, client: client)
            }
        ]
    }
}
