/// What the sentences of one UTC time said, gathered until the next time begins.
struct NMEAEpoch: Sendable {
    /// The most satellite numbers kept from GSA: more than every constellation's channels together.
    static let maximumUsedSatellites = 64

    /// The UTC time of day in seconds, once a sentence gave it.
    var timeOfDay: Double?
    var date: FixTime.Date?
    /// RMC status: `A` (valid) is true, `V` false; nil without RMC.
    var rmcValid: Bool?
    var hasGGA = false
    var rmcPosition: (latitude: Double, longitude: Double)?
    var ggaPosition: (latitude: Double, longitude: Double)?
    var quality: FixQuality?
    var ggaSatellites: Int?
    var ggaHDOP: Double?
    var altitude: Double?
    var geoidSeparation: Double?
    var rmcSpeed: Double?
    var rmcCourse: Double?
    var vtgSpeed: Double?
    var vtgCourse: Double?
    /// The largest GSA fix mode (1 none, 2 2D, 3 3D).
    var gsaMode: Int?
    /// The satellites GSA lists as used, by talker and number (each constellation numbers its own).
    var gsaSatellites: Set<String> = []
    var dops: (pdop: Double?, hdop: Double?, vdop: Double?)?
    var errors: (latitude: Double?, longitude: Double?, altitude: Double?)?
    /// GSV's satellites in view, per talker (the largest when a talker sends several signals).
    var inView: [String: Int] = [:]

    /// Whether the epoch says where the receiver is or is not: it has RMC or GGA.
    var isComplete: Bool { rmcValid != nil || hasGGA }

    /// Whether `sentence` belongs to a later epoch: its time differs, or it repeats the RMC or GGA already here.
    func isEnded(by sentence: NMEASentence, at time: Double?) -> Bool {
        if let time, let timeOfDay, time != timeOfDay { return true }
        return (sentence.kind == .rmc && rmcValid != nil) || (sentence.kind == .gga && hasGGA)
    }

    /// Takes in what `sentence` says.
    mutating func add(_ sentence: NMEASentence, at time: Double?) {
        if timeOfDay == nil { timeOfDay = time }
        switch sentence.kind {
        case .rmc: addRMC(sentence)
        case .gga: addGGA(sentence)
        case .gsa: addGSA(sentence)
        case .gsv:
            guard let count = NMEAField.count(sentence[2]), count <= 255 else { return }
            inView[sentence.talker] = max(inView[sentence.talker] ?? 0, count)
        case .vtg:
            vtgCourse = NMEAField.decimal(sentence[0]).flatMap(Self.course)
            let kilometresPerHour = NMEAField.decimal(sentence[6]).flatMap { $0 >= 0 ? $0 / 3.6 : nil }
            vtgSpeed = kilometresPerHour ?? NMEAField.decimal(sentence[4]).flatMap(Self.knots)
        case .gst:
            // Standard deviations: a negative one is no estimate.
            let deviation = { (field: Int) in NMEAField.decimal(sentence[field]).flatMap { $0 >= 0 ? $0 : nil } }
            errors = (deviation(5), deviation(6), deviation(7))
        case .zda:
            if let day = NMEAField.count(sentence[1]), let month = NMEAField.count(sentence[2]),
                let year = NMEAField.count(sentence[3])
            {
                date = FixTime.Date(year: year, month: month, day: day) ?? date
            }
        }
    }

    private mutating func addRMC(_ sentence: NMEASentence) {
        rmcValid = sentence[1] == "A"
        rmcPosition = Self.position(sentence, at: 2)
        rmcSpeed = NMEAField.decimal(sentence[6]).flatMap(Self.knots)
        rmcCourse = NMEAField.decimal(sentence[7]).flatMap(Self.course)
        date = NMEAField.date(sentence[8]) ?? date
    }

    private mutating func addGGA(_ sentence: NMEASentence) {
        hasGGA = true
        ggaPosition = Self.position(sentence, at: 1)
        quality = NMEAField.count(sentence[5]).flatMap(FixQuality.init(rawValue:))
        ggaSatellites = NMEAField.count(sentence[6])
        ggaHDOP = NMEAField.decimal(sentence[7])
        altitude = NMEAField.decimal(sentence[8])
        geoidSeparation = NMEAField.decimal(sentence[10])
    }

    private mutating func addGSA(_ sentence: NMEASentence) {
        if let mode = NMEAField.count(sentence[1]), (1...3).contains(mode) { gsaMode = max(gsaMode ?? 0, mode) }
        for index in 2...13 {
            guard let number = NMEAField.count(sentence[index]), gsaSatellites.count < Self.maximumUsedSatellites
            else { continue }
            // NMEA 4.11 gives the constellation in field 17 when one talker (GN) sends every GSA.
            gsaSatellites.insert(sentence.talker + sentence[17] + ":" + String(number))
        }
        dops = (NMEAField.decimal(sentence[14]), NMEAField.decimal(sentence[15]), NMEAField.decimal(sentence[16]))
    }

    /// The latitude and longitude in fields `index`…`index + 3`, or nil.
    private static func position(_ sentence: NMEASentence, at index: Int) -> (latitude: Double, longitude: Double)? {
        guard
            let latitude = NMEAField.angle(
                sentence[index], sentence[index + 1], negative: "S", positive: "N", limit: 90),
            let longitude = NMEAField.angle(
                sentence[index + 2], sentence[index + 3], negative: "W", positive: "E", limit: 180)
        else { return nil }
        return (latitude, longitude)
    }

    private static func knots(_ value: Double) -> Double? {
        value >= 0 ? value * 1852 / 3600 : nil
    }

    private static func course(_ value: Double) -> Double? {
        value >= 0 && value <= 360 ? value : nil
    }
}
