import VigilSensors

/// A fake sysfs and procfs pair with one device of each kind the catalog reads from a tree: a battery and mains, a
/// thermal zone, a hwmon chip, a backlight, an accelerometer, CPU times, memory and memory pressure.
///
/// ``empty`` has both roots and nothing in them.
package final class FakeMachine {
    package let sys = FakeSysfsTree()
    package let proc = FakeSysfsTree()

    /// The catalog options that read this machine.
    package var options: SourceCatalog.Options { SourceCatalog.Options(sysfsRoot: sys.root, procfsRoot: proc.root) }

    /// The ids whose device ``equipped()`` has and ``empty()`` lacks.
    /// A laptop battery reporting energy (µWh) and power (µW), as `drivers/acpi/battery.c` does.
    package static let energyBattery = [
        "type": "Battery", "status": "Discharging", "present": "1", "technology": "Li-ion", "cycle_count": "123",
        "voltage_min_design": "11400000", "voltage_now": "11850000", "power_now": "9450000",
        "energy_full_design": "57020000", "energy_full": "50120000", "energy_now": "31500000", "capacity": "62",
        "capacity_level": "Normal", "model_name": "5B10W13930", "manufacturer": "SMP", "serial_number": "1234",
    ]

    package static let treeDeviceIDs = [
        "battery", "thermal", "hwmon", "backlight", "accelerometer", "orientation", "cpu", "memory", "pressure",
    ]

    /// A machine with no device and no procfs file: only an empty `class/power_supply`, as a kernel with the class
    /// but no supply shows it.
    package static func empty() -> FakeMachine {
        let machine = FakeMachine()
        machine.sys.makeDirectory("class/power_supply")
        return machine
    }

    /// A machine with every device of ``treeDeviceIDs``.
    package static func equipped() -> FakeMachine {
        let machine = FakeMachine()
        machine.sys.device("class/power_supply/BAT0", energyBattery)
        machine.sys.device("class/power_supply/AC", ["type": "Mains", "online": "0"])
        machine.sys.device("class/thermal/thermal_zone0", ["type": "acpitz", "temp": "45000"])
        machine.sys.device("class/hwmon/hwmon0", ["name": "k10temp", "temp1_input": "41000"])
        machine.sys.device(
            "class/backlight/intel_backlight",
            ["brightness": "4800", "max_brightness": "9600", "actual_brightness": "4800", "type": "raw"])
        FakeIIOTree(at: machine.sys.root).addDevice(
            0, name: "bmi160",
            files: [
                "in_accel_x_raw": "0\n", "in_accel_y_raw": "-981\n", "in_accel_z_raw": "0\n",
                "in_accel_scale": "0.01\n",
            ])
        machine.proc.write("stat", "cpu  0 0 0 100 0\ncpu0 0 0 0 100 0\n")
        machine.proc.write("meminfo", "MemTotal: 1000 kB\nMemFree: 250 kB\nMemAvailable: 500 kB\n")
        machine.proc.write(
            "pressure/memory",
            "some avg10=0.00 avg60=0.00 avg300=0.00 total=100\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=50\n")
        return machine
    }
}
