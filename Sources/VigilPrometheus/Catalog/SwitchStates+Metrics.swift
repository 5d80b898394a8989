import VigilSensors

extension SwitchStates: ReadingMetrics {
    /// One `vigil_switch_state` per switch of each readable device: 1 in its set position (the lid closed, tablet
    /// mode on, a jack inserted), 0 otherwise; and `vigil_switch_device_up` per device, 0 while its node cannot be
    /// read.
    func addMetrics(to builder: inout MetricFamilyBuilder) {
        for device in devices {
            for state in device.states {
                builder.gauge(
                    "vigil_switch_state",
                    "Whether an input switch is in its set position (lid closed, tablet mode on, jack inserted) (1) "
                        + "or not (0).",
                    state.isOn, ["device": device.node, "switch": state.kind.name])
            }
        }
        for device in devices {
            builder.gauge(
                "vigil_switch_device_up", "Whether the switch device's node can be read (1) or not (0).",
                device.problem == nil, ["device": device.node, "name": device.name])
        }
    }
}
