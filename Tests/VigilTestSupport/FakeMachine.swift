import VigilSensors

/// A fake sysfs, procfs, etc and dev with one device of each kind the catalog reads from a tree: a battery and mains,
/// a thermal zone, a hwmon chip, a backlight, displays, the inventory's devices (a lid switch among them), an
/// accelerometer, CPU times, memory, memory pressure and the machine's identity (DMI, hostname, os-release).
///
/// ``empty`` has the four roots and nothing in them.
package final class FakeMachine {
    package let sys = FakeSysfsTree()
    package let proc = FakeSysfsTree()
    package let etc = FakeSysfsTree()
    /// Device nodes; a fake tree cannot hold a real evdev node, so the lid switch's node is absent.
    package let dev = FakeSysfsTree()
    /// The GNSS receiver of ``fullyEquipped()``, kept replaying while the machine lives.
    private var gnss: FakeGNSSReceiver?

    /// The catalog options that read this machine.
    package var options: SourceCatalog.Options {
        var options = SourceCatalog.Options(
            sysfsRoot: sys.root, procfsRoot: proc.root, etcRoot: etc.root, devRoot: dev.root)
        // Its Wi-Fi is a replayed nl80211 whose station is connected to the captures' access point.
        let wifi = ReplayNL80211Kernel(connected: true)
        options.wifiClient = { () throws(SensorError) in wifi.client() }
        return options
    }

    /// A laptop battery reporting energy (µWh) and power (µW), as `drivers/acpi/battery.c` does.
    package static let energyBattery = [
        "type": "Battery", "status": "Discharging", "present": "1", "technology": "Li-ion", "cycle_count": "123",
        "voltage_min_design": "11400000", "voltage_now": "11850000", "power_now": "9450000",
        "energy_full_design": "57020000", "energy_full": "50120000", "energy_now": "31500000", "capacity": "62",
        "capacity_level": "Normal", "model_name": "5B10W13930", "manufacturer": "SMP", "serial_number": "1234",
    ]

    /// The ids whose device ``equipped()`` has and ``empty()`` lacks.
    package static let treeDeviceIDs = [
        "battery", "thermal", "hwmon", "backlight", "displays", "switches", "radios", "inventory", "accelerometer",
        "orientation", "cpu", "memory", "pressure", "device",
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
        machine.addInventory()
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
        machine.addSuspendStatistics()
        return machine
    }
}

extension FakeMachine {
    /// `power/suspend_stats` as the kernel shows it after 12 suspends and one failure (a device `alarm` that
    /// refused to freeze with `EBUSY`), without the hardware-sleep times of ACPI low-power idle machines.
    package func addSuspendStatistics() {
        var attributes = [
            "success": "12", "fail": "1", "last_failed_dev": "alarm", "last_failed_errno": "-16",
            "last_failed_step": "freeze",
        ]
        for step in [
            "freeze", "prepare", "suspend", "suspend_late", "suspend_noirq", "resume_noirq", "resume_early", "resume",
        ] {
            attributes["failed_" + step] = step == "freeze" ? "1" : "0"
        }
        sys.device("power/suspend_stats", attributes)
    }
}

extension FakeMachine {
    /// A machine with a device for every catalog entry that reads a tree: ``equipped()`` plus one IIO device of each
    /// other sensor kind (a compass heading and a rotation quaternion among them), so the conformance suite can run
    /// every entry.
    package static func fullyEquipped() -> FakeMachine {
        let machine = equipped()
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
        // A HID sensor hub's compass heading (123.4°) and rotation (a quarter turn about z), read by `compass` and
        // `attitude` before the accelerometer and magnetometer above.
        iio.addHeadingChannel(6, raw: "1234")
        iio.addQuaternionChannel(7, raw: "0 0 7071068 7071068", scale: "0.0000001")
        machine.gnss = FakeGNSSReceiver(sys: machine.sys, dev: machine.dev)
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
    /// The USB interface of the laptop's camera, in ``addInventory()``.
    package static let cameraInterface = "pci0000:00/0000:00:14.0/usb1/1-6/1-6:1.0"

    /// A laptop's devices for the inventory: a UVC camera (`video0` capture and `video1` metadata on one USB
    /// interface), an HDA sound card with its `/proc/asound/cards` lines, a USB Bluetooth adapter with its rfkill
    /// switch, a USB modem (a `DEVTYPE=wwan` interface and a `cdc-wdm` node on one USB device), and input devices: an
    /// i8042 keyboard, the ACPI lid switch of libinput's test devices (the facts of `Tests/Fixtures/input/README.md`,
    /// see `NOTICE`) and a touchpad.
    package func addInventory() {
        sys.hardware("pci0000:00/0000:00:14.0/usb1/1-6", driver: "usb", bus: "usb")
        sys.hardware(Self.cameraInterface, driver: "uvcvideo", bus: "usb")
        sys.classDevice(
            "video4linux", "video0", parent: Self.cameraInterface,
            [
                "name": "Integrated Camera: Integrated C", "index": "0", "dev": "81:0",
                "uevent": "MAJOR=81\nMINOR=0\nDEVNAME=video0",
            ])
        sys.classDevice(
            "video4linux", "video1", parent: Self.cameraInterface,
            [
                "name": "Integrated Camera: Integrated C", "index": "1", "dev": "81:1",
                "uevent": "MAJOR=81\nMINOR=1\nDEVNAME=video1",
            ])
        let sound = "pci0000:00/0000:00:1f.3"
        sys.hardware(sound, driver: "snd_hda_intel", bus: "pci")
        sys.classDevice("sound", "card0", parent: sound, ["id": "PCH", "number": "0"])
        sys.classDevice("sound", "controlC0", parent: sound, ["dev": "116:7"])
        proc.write(
            "asound/cards",
            " 0 [PCH            ]: HDA-Intel - HDA Intel PCH\n                      HDA Intel PCH at 0xf7f10000 irq 32\n"
        )
        let bluetooth = "pci0000:00/0000:00:14.0/usb1/1-10/1-10:1.0"
        sys.hardware(bluetooth, driver: "btusb", bus: "usb")
        let hci = sys.classDevice("bluetooth", "hci0", parent: bluetooth)
        sys.device(hci + "/rfkill0", ["name": "hci0", "type": "bluetooth", "soft": "0", "hard": "0"])
        sys.link(hci + "/rfkill0/device", to: "..")
        sys.link("class/rfkill/rfkill0", to: "../../" + hci + "/rfkill0")
        sys.hardware("pci0000:00/0000:00:14.0/usb2/2-3", driver: "usb", bus: "usb")
        let modem = "pci0000:00/0000:00:14.0/usb2/2-3/2-3:1.4"
        sys.hardware(modem, driver: "qmi_wwan", bus: "usb")
        sys.classDevice("net", "wwp0s20f0u3i4", parent: modem, ["uevent": "DEVTYPE=wwan\nINTERFACE=wwp0s20f0u3i4"])
        sys.classDevice("usbmisc", "cdc-wdm0", parent: modem, ["dev": "180:176"])
        sys.classDevice("net", "lo", parent: nil, ["uevent": "INTERFACE=lo\nIFINDEX=1"])
        addInputDevice(
            "input3", parent: "platform/i8042/serio0", handlers: ["event3"],
            [
                "name": "AT Translated Set 2 keyboard", "phys": "isa0060/serio0/input0", "id/bustype": "0011",
                "id/vendor": "0001", "id/product": "0001", "capabilities/ev": "120013",
                "capabilities/key": "402000000 3803078f800d001 feffffdfffefffff fffffffffffffffe",
            ])
        // libinput's LITEST_LID_SWITCH: "Lid Switch", BUS_HOST 0x19, vendor 0, product 5, EV_SW / SW_LID only.
        addInputDevice(
            "input0", parent: "LNXSYSTM:00/LNXSYBUS:00/PNP0C0D:00", handlers: ["event0"],
            [
                "name": "Lid Switch", "phys": "PNP0C0D/button/input0", "id/bustype": "0019", "id/vendor": "0000",
                "id/product": "0005", "capabilities/ev": "21", "capabilities/sw": "1",
            ])
        addInputDevice(
            "input5", parent: "platform/i8042/serio1", handlers: ["event5", "mouse0"],
            [
                "name": "SynPS/2 Synaptics TouchPad", "phys": "isa0060/serio1/input0", "id/bustype": "0011",
                "id/vendor": "0002", "id/product": "0007", "capabilities/ev": "b",
                "capabilities/key": "e520 30000 0 0 0 0", "capabilities/abs": "660800011000003", "properties": "5",
            ])
    }

    /// An input device below `parent` with its handler entries (`event3`) as subdirectories, each with its `device`
    /// link back to the input device, as the kernel has them.
    package func addInputDevice(
        _ name: String, parent: String, handlers: [String], _ attributes: [String: String]
    ) {
        sys.hardware(parent)
        let directory = sys.classDevice("input", name, parent: parent, attributes)
        for handler in handlers {
            sys.device(directory + "/" + handler, ["dev": "13:64"])
            sys.link(directory + "/" + handler + "/device", to: "..")
            sys.link("class/input/" + handler, to: "../../" + directory + "/" + handler)
        }
    }
}
