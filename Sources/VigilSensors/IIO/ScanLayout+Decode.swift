extension ScanLayout {
    /// Decodes the scan at the start of `bytes`.
    ///
    /// Each value is read from its storage slot in the slot's byte order, shifted right, masked to its significant
    /// bits (so stray upper bits are dropped) and sign-extended when signed. Bytes past the first scan are ignored.
    ///
    /// - Throws: ``SensorError/malformedMessage(source:reason:)`` when `bytes` is shorter than one scan.
    package func decodeScan(_ bytes: some RandomAccessCollection<UInt8>) throws(SensorError) -> IIOScan {
        guard bytes.count >= scanBytes else {
            throw SensorError.malformedMessage(
                source: "IIO scan", reason: "truncated scan: \(bytes.count) bytes, a scan is \(scanBytes)")
        }
        var values: [String: [Int64]] = [:]
        var timestamp: Int64?
        let start = bytes.startIndex
        for element in elements {
            var decoded: [Int64] = []
            decoded.reserveCapacity(element.type.repeatCount)
            for repetition in 0..<element.type.repeatCount {
                let slotStart = bytes.index(start, offsetBy: element.offset + repetition * element.type.storageBytes)
                decoded.append(Self.value(in: bytes, at: slotStart, type: element.type))
            }
            if element.name == "timestamp" { timestamp = decoded.first }
            values[element.name] = decoded
        }
        return IIOScan(values: values, timestamp: timestamp)
    }

    /// Decodes every whole scan in `bytes`.
    ///
    /// - Throws: ``SensorError/malformedMessage(source:reason:)`` when `bytes` does not hold a whole number of
    ///   scans (a truncated scan at the end).
    package func decodeScans(_ bytes: some RandomAccessCollection<UInt8>) throws(SensorError) -> [IIOScan] {
        guard bytes.count % scanBytes == 0 else {
            throw SensorError.malformedMessage(
                source: "IIO scan",
                reason: "truncated scan: \(bytes.count) bytes is not a whole number of \(scanBytes)-byte scans")
        }
        var scans: [IIOScan] = []
        var start = bytes.startIndex
        while start != bytes.endIndex {
            let end = bytes.index(start, offsetBy: scanBytes)
            scans.append(try decodeScan(bytes[start..<end]))
            start = end
        }
        return scans
    }

    private static func value<Bytes: RandomAccessCollection<UInt8>>(
        in bytes: Bytes, at slotStart: Bytes.Index, type: ScanElementType
    ) -> Int64 {
        var raw: UInt64 = 0
        var index = slotStart
        for byteNumber in 0..<type.storageBytes {
            let byte = UInt64(bytes[index])
            switch type.byteOrder {
            case .littleEndian: raw |= byte << (8 * UInt64(byteNumber))
            case .bigEndian: raw = raw << 8 | byte
            }
            index = bytes.index(after: index)
        }
        let mask: UInt64 = type.bits >= 64 ? ~0 : (1 << UInt64(type.bits)) - 1
        var value = (raw >> UInt64(type.shift)) & mask
        if type.isSigned, type.bits < 64, value & (1 << UInt64(type.bits - 1)) != 0 {
            value |= ~mask
        }
        return Int64(bitPattern: value)
    }
}
