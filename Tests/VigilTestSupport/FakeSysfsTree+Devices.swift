extension FakeSysfsTree {
    /// Makes the hardware directory `devices/<path>` with its `driver` and `subsystem` (bus) links, as the kernel
    /// shows a bound device (the links' targets need not exist: only their names are read).
    package func hardware(_ path: String, driver: String? = nil, bus: String? = nil) {
        makeDirectory("devices/" + path)
        if let driver { link("devices/\(path)/driver", to: "../../bus/\(bus ?? "platform")/drivers/\(driver)") }
        if let bus { link("devices/\(path)/subsystem", to: "../../bus/\(bus)") }
    }

    /// Makes the class device `name` of `className` where the kernel puts it, below its parent hardware
    /// (`devices/<parent>/<className>/<name>`, or `devices/virtual/<className>/<name>` without one), with
    /// `attributes`, its `subsystem` link, its `device` link to the parent, and the `class/<className>/<name>` link.
    ///
    /// - Returns: The device directory, relative to the root (`devices/…/video4linux/video0`).
    @discardableResult
    package func classDevice(
        _ className: String, _ name: String, parent: String?, _ attributes: [String: String] = [:]
    ) -> String {
        let directory = "devices/\(parent ?? "virtual")/\(className)/\(name)"
        device(directory, attributes)
        link(directory + "/subsystem", to: "../../../class/\(className)")
        if parent != nil { link(directory + "/device", to: "../..") }
        link("class/\(className)/\(name)", to: "../../" + directory)
        return directory
    }
}
