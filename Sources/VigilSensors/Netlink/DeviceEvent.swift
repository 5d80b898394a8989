/// What a ``DeviceMonitor`` reports: a kernel uevent that passed the monitor's filter, a notice that events were lost
/// (``SensorEvent/Kind/overflow``, the kernel's `ENOBUFS`: rescan the devices you care about), or that the kernel
/// cannot be read for now (``SensorEvent/Kind/unavailable(reason:)``: the monitor reopens its socket by itself and
/// then reports an overflow); and when it was seen (for a uevent or an overflow, when the datagram or the error was
/// received).
///
/// This is the hot-plug input every source that follows devices takes as `changes` (``PowerSupplyMonitor``,
/// ``BacklightMonitor``, the IIO monitors): pass ``DeviceMonitor/readings``.
public typealias DeviceEvent = SensorEvent<Uevent>

extension SensorEvent where Payload == Uevent {
    /// A uevent seen now.
    ///
    /// - Parameter uevent: The kernel's event.
    /// - Returns: The event, stamped ``ReadingTime/now()``.
    public static func uevent(_ uevent: Uevent) -> Self { .event(uevent) }

    /// The uevent, when the event is one.
    public var uevent: Uevent? { payload }
}
