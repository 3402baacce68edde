package io.opscv.runtime;

import java.util.Locale;

/**
 * The platforms an operator can be asked to behave as (SPEC §6): the products of the upstream
 * support table, each with its SoC, its NPU architecture and its dtype rules, plus this project's
 * own {@link #CPU} platform, the default.
 *
 * <p>A product profile reproduces what that NPU product accepts, rejects and executes; the
 * computation itself always runs on the host CPU.
 */
public enum Platform {
    /** This project's own platform: every dtype, no product restriction, the direct fused plan. */
    CPU("cpu", "cpu", Arch.CPU, true),
    /** Ascend 950PR / 950DT: RegBase plans, non-deterministic by default upstream. */
    ASCEND950("ascend950", "Ascend950", Arch.DAV_3510, false),
    /** Atlas A3 training / inference series. */
    ASCEND910_93("ascend910_93", "Ascend910_93", Arch.DAV_2201, true),
    /** Atlas A2 training / inference series. */
    ASCEND910B("ascend910b", "Ascend910B", Arch.DAV_2201, true),
    /** Atlas training series: FLOAT and FLOAT16 only. */
    ASCEND910("ascend910", "Ascend910", Arch.DAV_1001, true),
    /** Atlas 200I/500 A2 inference: not supported by the operator. */
    ASCEND310B("ascend310b", "Ascend310B", Arch.UNSUPPORTED, true),
    /** Atlas inference series: not supported by the operator. */
    ASCEND310P("ascend310p", "Ascend310P", Arch.UNSUPPORTED, true);

    /** The NPU architectures that select an execution plan. */
    public enum Arch {
        /** This project's own platform. */
        CPU,
        /** Ascend 950: the RegBase plans. */
        DAV_3510,
        /** Atlas A2 and A3. */
        DAV_2201,
        /** Atlas training series. */
        DAV_1001,
        /** A product the operators do not run on. */
        UNSUPPORTED
    }

    private final String cliName;
    private final String socName;
    private final Arch arch;
    private final boolean deterministicByDefault;

    Platform(String cliName, String socName, Arch arch, boolean deterministicByDefault) {
        this.cliName = cliName;
        this.socName = socName;
        this.arch = arch;
        this.deterministicByDefault = deterministicByDefault;
    }

    /** {@return the platform the library uses when none is chosen} */
    public static Platform defaultPlatform() {
        return CPU;
    }

    /** {@return the name the CLI's {@code --soc} takes, e.g. {@code ascend910b}} */
    public String cliName() {
        return cliName;
    }

    /** {@return the SoC name, e.g. {@code Ascend910B}} */
    public String socName() {
        return socName;
    }

    /** {@return the NPU architecture, which selects the execution plan} */
    public Arch arch() {
        return arch;
    }

    /** {@return false only where upstream needs {@code ACL_OPT_DETERMINISTIC} to be deterministic (Ascend950)} */
    public boolean deterministicByDefault() {
        return deterministicByDefault;
    }

    /** {@return whether the upsample operators run on this platform at all} */
    public boolean supported() {
        return arch != Arch.UNSUPPORTED;
    }

    /**
     * The platform with this CLI or SoC name (case-insensitive).
     *
     * @param name a CLI name ({@code ascend910b}) or a SoC name ({@code Ascend910B})
     * @return the platform
     * @throws IllegalArgumentException for an unknown name, listing the known ones
     */
    public static Platform byName(String name) {
        String wanted = name.trim().toLowerCase(Locale.ROOT);
        for (Platform p : values()) {
            if (p.cliName.equals(wanted) || p.socName.toLowerCase(Locale.ROOT).equals(wanted)) {
                return p;
            }
        }
        StringBuilder known = new StringBuilder();
        for (Platform p : values()) {
            known.append(known.isEmpty() ? "" : ", ").append(p.cliName);
        }
        throw new IllegalArgumentException("unknown platform '" + name + "' (known: " + known + ")");
    }

    @Override
    public String toString() {
        return socName;
    }
}
