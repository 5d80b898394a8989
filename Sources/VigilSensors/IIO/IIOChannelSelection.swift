/// Which channels of its type an IIO sensor kind reads, and how many values a sample of them holds.
public enum IIOChannelSelection: Hashable, Sendable, CustomStringConvertible {
    /// One value: the type's unmodified channel (`in_illuminance_raw`), else its first.
    case scalar
    /// Three values: the `x`, `y` and `z` channels, with the device's mount matrix applied.
    case vector
    /// One value: the first of these modified channels the device has, in this order of preference (the `rot`
    /// channels `from_north_magnetic_tilt_comp`, then `from_north_magnetic`).
    case firstOf([String])
    /// `count` values of one modified channel: its `_raw` attribute holds them on one line, its scan element repeats
    /// them (`rot` `quaternion`, four values, scan type `le:s16/32X4>>0`).
    case repeated(String, count: Int)

    /// How many values a sample of the selection holds.
    public var valueCount: Int {
        switch self {
        case .scalar, .firstOf: return 1
        case .vector: return 3
        case .repeated(_, let count): return count
        }
    }

    /// What the selection needs of channels of `type`, in words: "an in_illuminance channel", "in_accel_x, _y and _z
    /// channels".
    func wanted(type: String) -> String {
        self == .vector ? channels(type: type) : "an " + channels(type: type)
    }

    /// That a device lacks what the selection needs, in words: "no in_accel_x, _y and _z channels".
    func lacking(type: String) -> String {
        "no " + channels(type: type)
    }

    private func channels(type: String) -> String {
        switch self {
        case .scalar: return "in_\(type) channel"
        case .vector: return "in_\(type)_x, _y and _z channels"
        case .firstOf(let modifiers): return modifiers.map { "in_\(type)_\($0)" }.joined(separator: " or ") + " channel"
        case .repeated(let modifier, let count): return "in_\(type)_\(modifier) channel of \(count) values"
        }
    }

    public var description: String {
        switch self {
        case .scalar: return "scalar"
        case .vector: return "vector"
        case .firstOf(let modifiers): return "first of " + modifiers.joined(separator: ", ")
        case .repeated(let modifier, let count): return "\(modifier) × \(count)"
        }
    }
}
