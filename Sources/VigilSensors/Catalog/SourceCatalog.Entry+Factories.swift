extension SourceCatalog.Entry {
    /// An entry for a source made from the options and the entry's argument (nil when it takes none).
    ///
    /// Its availability is the made source's own, with `/` as the argument of an entry that takes one.
    static func source<S: Source>(
        id: String, name: String, argumentName: String? = nil,
        make: @escaping @Sendable (SourceCatalog.Options, BytePath?) -> S
    ) -> Self where S.Reading: CatalogReading {
        Self(
            id: id, name: name, argumentName: argumentName,
            availability: { options in make(options, argumentName == nil ? nil : "/").availability },
            build: { options, argument in CatalogSource(id: id, name: name, source: make(options, argument)) })
    }

    /// An entry whose source also follows the kernel's uevents for `subsystem` (changes, hot-plug) through a
    /// ``DeviceMonitor`` that the made ``CatalogSource`` owns, starts before the source and stops after it.
    ///
    /// `make` gets that monitor, or nil when uevents do not apply: under another sysfs root than `/sys` (the events
    /// would describe other devices than the tree being read) or where the kernel's uevent socket cannot be opened.
    /// The availability is the source's own, made without uevents.
    static func withUevents<S: Source>(
        id: String, name: String, subsystem: String,
        make: @escaping @Sendable (SourceCatalog.Options, DeviceMonitor?) -> S
    ) -> Self where S.Reading: CatalogReading {
        withUevents(id: id, name: name, subsystems: [subsystem], make: make)
    }

    /// An entry whose source follows the uevents of several `subsystems` through one ``DeviceMonitor``; see
    /// `withUevents(id:name:subsystem:make:)`.
    static func withUevents<S: Source>(
        id: String, name: String, subsystems: Set<String>,
        make: @escaping @Sendable (SourceCatalog.Options, DeviceMonitor?) -> S
    ) -> Self where S.Reading: CatalogReading {
        Self(
            id: id, name: name,
            availability: { options in make(options, nil).availability },
            build: { options, _ in
                let devices = DeviceMonitor(subsystems: subsystems, eventLoop: options.eventLoop)
                guard options.followsUevents && devices.availability.isAvailable else {
                    return CatalogSource(id: id, name: name, source: make(options, nil))
                }
                return CatalogSource(id: id, name: name, source: make(options, devices), helpers: [devices])
            })
    }
}
