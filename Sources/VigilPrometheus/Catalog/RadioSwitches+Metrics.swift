import VigilSensors

extension RadioSwitches: ReadingMetrics {
    /// Per rfkill switch, labelled with its class entry (`switch`), its own `name` and its `type`:
    /// `vigil_radio_soft_blocked` and `vigil_radio_hard_blocked` (1 blocked, 0 not; absent while unknown),
    /// `vigil_radio_hard_block_reason` per reason the kernel names (1 while it holds), and
    /// `vigil_radio_events_followed`, 1 while `/dev/rfkill` is read, 0 when only sysfs and uevents serve.
    func addMetrics(to builder: inout MetricFamilyBuilder) {
        func labels(_ radio: RadioSwitch) -> [String: String] {
            ["switch": radio.name, "name": radio.label ?? "", "type": radio.type ?? ""]
        }
        for radio in switches {
            builder.gauge(
                "vigil_radio_soft_blocked",
                "Whether software blocks the radio (1: rfkill block, airplane mode) or not (0).",
                radio.softBlocked, labels(radio))
        }
        for radio in switches {
            builder.gauge(
                "vigil_radio_hard_blocked",
                "Whether a hardware switch or the platform blocks the radio (1) or not (0).",
                radio.hardBlocked, labels(radio))
        }
        for radio in switches {
            guard let reasons = radio.hardBlockReasons else { continue }
            for (reason, bit) in [("signal", RadioSwitch.HardBlockReasons.signal), ("not-owner", .notOwner)] {
                builder.gauge(
                    "vigil_radio_hard_block_reason",
                    "Whether the hardware block has this reason (1): the kill signal, or another owner of the device.",
                    reasons.contains(bit), labels(radio).merging(["reason": reason]) { $1 })
            }
        }
        builder.gauge(
            "vigil_radio_events_followed",
            "Whether /dev/rfkill is read for changes (1) or only sysfs and uevents serve (0).", eventDevice != nil)
    }
}
