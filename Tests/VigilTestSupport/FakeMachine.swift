import VigilSensors

/// A fake sysfs, procfs, etc and dev with one device of each kind the catalog reads from a tree: a battery and mains,
/// a thermal zone, a hwmon chip, a backlight, displays, an accelerometer, CPU times, memory, memory pressure and the
/// machine's identity (DMI, hostname, os-release); ``fullyEquipped()`` adds a lid switch.
///
/// ``empty`` has the four roots and nothing in them.
package final class FakeMachine {
    package let sys = FakeSysfsTree()
    package let proc = FakeSysfsTree()
    package let etc = FakeSysfsTree()
    /// Device nodes; a fake tree cannot hold a real evdev node, so the lid switch's node is absent.
    package let dev = FakeSysfsTree()

    /// The catalog options that read this machine.
    package var options: SourceCatalog.Options {
        SourceCatalog.Options(sysfsRoot: sys.root, procfsRoot: proc.root, etcRoot: etc.root, devRoot: dev.root)
    }

    /// The ids whose device ``equipped()`` has and ``empty()`` lacks.
    /// A laptop battery reporting energy (µWh) and power (µW), as `drivers/acpi/battery.c` does.
    package static let energyBattery = [
        "type": "Battery", "status": "Discharging", "present": "1", "technology": "Li-ion", "cycle_count": "123",
        "voltage_min_design": "11400000", "voltage_now": "11850000", "power_now": "9450000",
        "energy_full_design": "57020000", "energy_full": "50120000", "energy_now": "31500000", "capacity": "62",
        "capacity_level": "Normal", "model_name": "5B10W13930", "manufacturer": "SMP", "serial_number": "1234",
    ]

    package static let treeDeviceIDs = [
        "battery", "thermal", "hwmon", "backlight", "displays", "accelerometer", "orientation", "cpu", "memory",
        "pressure", "device",
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
        machine.addDisplays()
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
        machine.proc.write("sys/kernel/hostname", "fake-host\n")
        machine.proc.write("sys/kernel/random/boot_id", "041633d5-682b-4bb6-99b7-ce52309aa300\n")
        machine.sys.device(
            "class/dmi/id",
            [
                "sys_vendor": "Dell Inc.", "product_name": "OptiPlex 3060", "chassis_type": "3",
                "bios_vendor": "Dell Inc.",
                "bios_version": "1.28.0", "bios_date": "12/13/2023",
            ])
        machine.etc.write(
            "os-release", "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nID=debian\nVERSION_ID=\"12\"\n")
        machine.etc.write("machine-id", "3d1219c7c4c5404aaa1f6d2a48adfda4\n")
        return machine
    }
}

extension FakeMachine {
    /// A machine with a device for every catalog entry that reads a tree: ``equipped()`` plus one IIO device of each
    /// other sensor kind and a lid switch, so the conformance suite can run every entry.
    package static func fullyEquipped() -> FakeMachine {
        let machine = equipped()
        machine.addLidSwitch()
        let iio = FakeIIOTree(at: machine.sys.root)
        iio.addDevice(
            1, name: "bmg160",
            files: [
                "in_anglvel_x_raw": "1\n", "in_anglvel_y_raw": "2\n", "in_anglvel_z_raw": "3\n",
                "in_anglvel_scale": "0.001\n",
            ])
        iio.addDevice(
            2, name: "ak8975",
            files: [
                "in_magn_x_raw": "10\n", "in_magn_y_raw": "20\n", "in_magn_z_raw": "30\n", "in_magn_scale": "0.3\n",
            ])
        iio.addDevice(3, name: "als", files: ["in_illuminance_input": "3\n"])
        iio.addDevice(4, name: "prox", files: ["in_proximity_raw": "12\n"])
        iio.addDevice(5, name: "baro", files: ["in_pressure_input": "101.3\n"])
        return machine
    }
}

extension FakeMachine {
    /// A laptop's DRM connectors: `card0-eDP-1` with its panel (a real EDID) and `card0-HDMI-A-1` with nothing
    /// plugged in, beside the card's own entry.
    package func addDisplays() {
        sys.makeDirectory("class/drm/card0")
        sys.device(
            "class/drm/card0-eDP-1",
            ["status": "connected", "enabled": "enabled", "dpms": "On", "modes": "1920x1080\n1920x1080"])
        sys.write("class/drm/card0-eDP-1/edid", bytes: Fixtures.edid("laptop-boe-nv156fhm-n4g.bin") ?? [])
        sys.device("class/drm/card0-HDMI-A-1", ["status": "disconnected", "enabled": "disabled", "dpms": "Off"])
        sys.write("class/drm/card0-HDMI-A-1/modes", "")
        sys.write("class/drm/card0-HDMI-A-1/edid", bytes: [])
    }
}

extension FakeMachine {
    /// The ACPI lid as the kernel's button driver registers it (`Lid Switch`, `EV_SYN` and `EV_SW`, `SW_LID`) at
    /// `class/input/event0`, beside its `input0` device; no node under ``dev``.
    package func addLidSwitch() {
        sys.device("class/input/input0", ["name": "Lid Switch"])
        sys.device("class/input/input0/capabilities", ["ev": "21", "sw": "1", "key": "0"])
        sys.makeDirectory("class/input/event0")
        sys.link("class/input/event0/device", to: "../input0")
    }
}
