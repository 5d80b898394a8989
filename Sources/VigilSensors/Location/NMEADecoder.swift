/// A receiver's bytes turned into fixes: NMEA sentences grouped into one ``LocationFix`` per UTC time, with bounded
/// memory whatever arrives.
///
/// Sentences are gathered into an epoch until one of another UTC time arrives (or a second RMC or GGA, for receivers
/// that leave the time empty without a fix); the epoch then becomes a fix if it has RMC or GGA. So a fix is handed
/// out when the next epoch begins. The date comes from RMC or ZDA and is kept for the epochs that lack one; the
/// satellites in view are kept per constellation from the last GSV, which receivers send every few seconds only.
package struct NMEADecoder: Sendable {
    private var stream = NMEAStream()
    private var epoch = NMEAEpoch()
    private var date: FixTime.Date?
    private var inView: [String: Int] = [:]
    private let receiver: String
    private let receiverType: String?

    /// A decoder for `receiver`, whose name and type the fixes carry.
    package init(receiver: String, receiverType: String? = nil) {
        self.receiver = receiver
        self.receiverType = receiverType
    }

    /// How many bytes of an unfinished sentence are kept.
    package var pendingByteCount: Int { stream.pendingByteCount }

    /// Sentences refused since the start: wrong checksum, binary inside, too long.
    package var rejectedSentences: Int { stream.rejected }

    /// Takes the bytes of one read and returns the fixes of the epochs they end, in order.
    package mutating func consume(_ bytes: some Sequence<UInt8>) -> [LocationFix] {
        var fixes: [LocationFix] = []
        for sentence in stream.consume(bytes) {
            let time: Double? =
                switch sentence.kind {
                case .rmc, .gga, .gst, .zda: NMEAField.timeOfDay(sentence[0])
                case .gsa, .gsv, .vtg: nil
                }
            if epoch.isEnded(by: sentence, at: time) {
                if let fix = close() { fixes.append(fix) }
            }
            epoch.add(sentence, at: time)
        }
        return fixes
    }

    /// Ends the open epoch: its fix, if it has RMC or GGA; the date and satellites in view carry over.
    private mutating func close() -> LocationFix? {
        let ended = epoch
        epoch = NMEAEpoch()
        date = ended.date ?? date
        for (talker, count) in ended.inView { inView[talker] = count }
        guard ended.isComplete else { return nil }
        var fix = LocationFix(receiver: receiver, receiverType: receiverType, mode: .none)
        fix.satellitesInView = inView.isEmpty ? nil : inView.values.reduce(0, +)
        if let timeOfDay = ended.timeOfDay, let date {
            fix.time = FixTime(date: date, secondOfDay: timeOfDay)
        }
        fix.quality = ended.quality
        let hasFix = ended.rmcValid ?? ((ended.quality?.rawValue ?? 0) > 0)
        guard hasFix, let position = ended.ggaPosition ?? ended.rmcPosition else { return fix }
        fix.mode =
            switch ended.gsaMode {
            case 2: .twoD
            case 3: .threeD
            default: .fix
            }
        (fix.latitude, fix.longitude) = position
        if ended.ggaPosition != nil {
            fix.altitude = ended.altitude
            fix.geoidSeparation = ended.geoidSeparation
        }
        fix.speed = ended.rmcSpeed ?? ended.vtgSpeed
        fix.course = ended.rmcCourse ?? ended.vtgCourse
        fix.satellitesUsed = ended.ggaSatellites ?? (ended.gsaSatellites.isEmpty ? nil : ended.gsaSatellites.count)
        fix.pdop = ended.dops?.pdop
        fix.hdop = ended.dops?.hdop ?? ended.ggaHDOP
        fix.vdop = ended.dops?.vdop
        (fix.latitudeError, fix.longitudeError, fix.altitudeError) =
            (ended.errors?.latitude, ended.errors?.longitude, ended.errors?.altitude)
        return fix
    }
}
