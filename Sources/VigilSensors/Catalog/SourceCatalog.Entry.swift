extension SourceCatalog {
    /// One built-in source: its id, its name, whether this machine has it, and how to make one.
    public struct Entry: Sendable, Identifiable {
        /// The id `vigil` takes on its command line, for example `battery`, `cpu` or `files`.
        public let id: String
        /// The human name `vigil list` shows, for example "Battery (sysfs power_supply)".
        public let name: String
        /// The argument ``make(_:argument:)`` needs, in words (`PATH` for `files`), or nil when it takes none.
        public let argumentName: String?

        private let check: @Sendable (Options) -> Availability
        private let build: @Sendable (Options, BytePath?) -> CatalogSource
        private let checkArgument: (@Sendable (BytePath) throws(SensorError) -> Void)?

        /// Creates an entry from its availability check and its factory.
        ///
        /// - Parameters:
        ///   - build: Makes the source from the options and the argument; the argument is never nil when
        ///     `argumentName` is set, always nil otherwise.
        ///   - checkArgument: Refuses an argument the source cannot take, before `build` runs.
        init(
            id: String, name: String, argumentName: String? = nil,
            availability: @escaping @Sendable (Options) -> Availability,
            checkArgument: (@Sendable (BytePath) throws(SensorError) -> Void)? = nil,
            build: @escaping @Sendable (Options, BytePath?) -> CatalogSource
        ) {
            self.id = id
            self.name = name
            self.argumentName = argumentName
            self.check = availability
            self.checkArgument = checkArgument
            self.build = build
        }

        /// Whether the source can run with these options, checked without making or starting it.
        ///
        /// An entry that takes an argument checks the kernel interface it needs (for `files`, that inotify works
        /// on `/`), since it has no argument to check.
        public func availability(_ options: Options = Options()) -> Availability {
            check(options)
        }

        /// Makes the source, ready to start and not started.
        ///
        /// - Parameters:
        ///   - options: Where to read and which event loop to use.
        ///   - argument: The entry's argument (see ``argumentName``) as exact bytes, since a file name need not be
        ///     UTF-8; a `String` converts with `BytePath(_:)` or as a literal. Nil for an entry that takes none.
        /// - Returns: The source with its helper monitors; subscribe to its readings, then start it.
        /// - Throws: ``SensorError/unavailable(source:reason:)`` when the entry needs an argument and none is
        ///   given, or is given one it does not take; ``SensorError/invalidArgument(name:value:reason:)`` for an
        ///   argument the source refuses (a `reach` target with a bad port) or an option no source takes (a declination beyond ±180°). Whether the machine has the source is not checked
        ///   here: starting says so, as ``availability(_:)`` does beforehand.
        public func make(_ options: Options = Options(), argument: BytePath? = nil) throws(SensorError)
            -> CatalogSource
        {
            try options.validate()
            switch (argumentName, argument) {
            case (let name?, nil):
                throw .unavailable(source: id, reason: "it needs the argument \(name)")
            case (nil, let argument?):
                throw .unavailable(source: id, reason: "it takes no argument, got \"\(argument.lossyString)\"")
            default:
                if let checkArgument, let argument { try checkArgument(argument) }
                return build(options, argument)
            }
        }

        /// This entry with another availability check, which the sources it makes report too.
        func checking(_ availability: @escaping @Sendable (Options) -> Availability) -> Entry {
            let build = self.build
            return Entry(
                id: id, name: name, argumentName: argumentName, availability: availability,
                checkArgument: checkArgument
            ) {
                options, argument in
                CatalogSource(build(options, argument), availability: { availability(options) })
            }
        }
    }
}
