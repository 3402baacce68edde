package io.opscv.runtime;

/** {@code aclSysParamOpt}: the context options {@code aclrtCtxSetSysParamOpt} sets. */
public enum SysParamOpt {
    /** 1 = deterministic computation, 0 = the platform's default. */
    ACL_OPT_DETERMINISTIC
}
