extension EDID {
    /// A screen's physical size as bytes 21–22 of the base block state it: centimetres, an aspect ratio, or
    /// nothing.
    ///
    /// Both bytes 0 mean the size is unknown or varies (a projector). From EDID 1.4 on, exactly one byte 0 makes the
    /// other an aspect ratio: landscape (n + 99) / 100 or portrait 100 / (n + 99). Some displays state something that
    /// cannot be their size (TVs that write 16:9 as 160 × 90 cm); such sizes are kept, with ``isPlausible`` false.
    public struct PhysicalSize: Sendable, Equatable, Encodable, CustomStringConvertible {
        /// What the two bytes state.
        public enum Kind: String, Sendable, Encodable {
            /// A width and a height in centimetres.
            case measured
            /// An aspect ratio instead of a size (EDID 1.4).
            case aspectRatio
            /// Neither (both bytes 0, or one 0 before EDID 1.4).
            case unknown
        }

        /// Which way an aspect-ratio-only screen is meant to be used.
        public enum Orientation: String, Sendable, Encodable {
            /// Wider than tall.
            case landscape
            /// Taller than wide.
            case portrait
        }

        /// What the bytes state.
        public let kind: Kind
        /// The width in cm when ``kind`` is ``Kind/measured``.
        public let widthCentimetres: Int?
        /// The height in cm when ``kind`` is ``Kind/measured``.
        public let heightCentimetres: Int?
        /// Width over height, rounded to two decimals; `nil` when unknown.
        public let aspectRatio: Double?
        /// The orientation an aspect ratio was stated for; `nil` unless ``kind`` is ``Kind/aspectRatio``.
        public let orientation: Orientation?
        /// False when a measured size cannot be the screen's (an aspect ratio written as centimetres, proportions no
        /// screen has); ``EDID/notes`` says why.
        public let isPlausible: Bool

        /// The diagonal in inches of a measured size, to one decimal.
        public var diagonalInches: Double? {
            guard let width = widthCentimetres, let height = heightCentimetres else { return nil }
            let inches = Double(width * width + height * height).squareRoot() / 2.54
            return (inches * 10).rounded() / 10
        }

        public var description: String {
            switch kind {
            case .measured:
                let size = "\(widthCentimetres ?? 0)×\(heightCentimetres ?? 0) cm"
                return isPlausible ? size : size + " (implausible)"
            case .aspectRatio:
                let ratio = String(Int(((aspectRatio ?? 0) * 100).rounded()))
                let whole = ratio.dropLast(2).isEmpty ? "0" : String(ratio.dropLast(2))
                return "aspect ratio \(whole).\(ratio.suffix(2)) (\(orientation?.rawValue ?? "landscape")), no size"
            case .unknown:
                return "no size"
            }
        }

        /// Decodes bytes 21 (horizontal) and 22 (vertical); `notes` receives why a size is implausible.
        static func decode(horizontal: UInt8, vertical: UInt8, version: (Int, Int), notes: inout [String]) -> Self {
            let isV14 = version >= (1, 4)
            switch (Int(horizontal), Int(vertical)) {
            case (0, 0):
                return Self(unknownWith: &notes, "size bytes are 0 × 0: the size is unknown or varies (a projector)")
            case (let n, 0) where isV14:
                return Self(
                    kind: .aspectRatio, widthCentimetres: nil, heightCentimetres: nil,
                    aspectRatio: rounded(Double(n + 99) / 100), orientation: .landscape, isPlausible: true)
            case (0, let n) where isV14:
                return Self(
                    kind: .aspectRatio, widthCentimetres: nil, heightCentimetres: nil,
                    aspectRatio: rounded(100 / Double(n + 99)), orientation: .portrait, isPlausible: true)
            case (0, _), (_, 0):
                return Self(unknownWith: &notes, "size bytes are \(horizontal) × \(vertical): one side is unknown")
            case (let width, let height):
                let ratio = Double(width) / Double(height)
                var plausible = true
                if let aspect = aspectRatioWrittenAsSize(width: width, height: height) {
                    plausible = false
                    notes.append("size \(width) × \(height) cm looks like the aspect ratio \(aspect), not a size")
                } else if ratio > 4 || ratio < 0.25 {
                    plausible = false
                    notes.append("size \(width) × \(height) cm has proportions no screen has")
                }
                return Self(
                    kind: .measured, widthCentimetres: width, heightCentimetres: height, aspectRatio: rounded(ratio),
                    orientation: nil, isPlausible: plausible)
            }
        }

        private init(unknownWith notes: inout [String], _ note: String) {
            notes.append(note)
            self.init(
                kind: .unknown, widthCentimetres: nil, heightCentimetres: nil, aspectRatio: nil, orientation: nil,
                isPlausible: true)
        }

        private init(
            kind: Kind, widthCentimetres: Int?, heightCentimetres: Int?, aspectRatio: Double?,
            orientation: Orientation?, isPlausible: Bool
        ) {
            self.kind = kind
            self.widthCentimetres = widthCentimetres
            self.heightCentimetres = heightCentimetres
            self.aspectRatio = aspectRatio
            self.orientation = orientation
            self.isPlausible = isPlausible
        }

        /// The aspect ratio `width` × `height` spells when it is a common one written as centimetres: 16 × 9, 16 ×
        /// 10, 4 × 3 and 5 × 4 as they are, and 16:9 and 16:10 times ten (160 × 90, 160 × 100).
        private static func aspectRatioWrittenAsSize(width: Int, height: Int) -> String? {
            let ratios = [(16, 9), (16, 10), (4, 3), (5, 4)]
            for (w, h) in ratios where width == w && height == h { return "\(w):\(h)" }
            for (w, h) in ratios.prefix(2) where width == 10 * w && height == 10 * h { return "\(w):\(h)" }
            return nil
        }

        private static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
    }
}
