#!/usr/bin/python3
"""Generates the extra PyTorch reference cases of extra-golden/cases.json (same fields as golden/README.md).

They cover what the public golden set does not:
  * the fallback plans' faithful exception (SPEC section 6): ResizeBilinearV2Grad5Hd / ResizeBilinearV2 take the
    sizes only, so with a scales that differs from out / in they compute PyTorch's result *without* scales
    ("reference": "sizes_only"); the case's "scales" fields still say what the operator is called with;
  * aclnnUpsampleBilinear2d (the 2-D forward), which has no public golden case;
  * one more 2-D backward case, with fractional scales.

Run with the system Python that has PyTorch (Debian: apt-get install python3-torch):
    /usr/bin/python3 core/src/test/resources/extra-golden/generate.py
It is deterministic (fixed seeds); the tests read the committed files and never need PyTorch.
"""
import json
import os

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "..", "golden")
NP_DTYPE = {"float32": np.float32, "float16": np.float16}


def save(name, array):
    np.save(os.path.join(HERE, name), array)
    return name


def store_input(name, values, dtype):
    """The operator's input in its dtype (bfloat16 as raw bit patterns in <u2), and its exact float64 value."""
    t = torch.from_numpy(values)
    if dtype == "bfloat16":
        b = t.to(torch.bfloat16)
        bits = b.view(torch.int16).numpy().view(np.uint16)
        return save(name, bits), b.to(torch.float64)
    arr = values.astype(NP_DTYPE[dtype])
    return save(name, arr), torch.from_numpy(arr.astype(np.float64))


def axis_terms(n_in, n_out):
    """The public golden set's bound on the terms one element sums along an axis: ceil(out / in) + 2."""
    return -(-n_out // n_in) + 2


def bilinear_backward(grad, in_hw, out_hw, align_corners, sh, sw):
    n, c = grad.shape[0], grad.shape[1]
    return torch.ops.aten.upsample_bilinear2d_backward(
        grad, list(out_hw), [n, c, in_hw[0], in_hw[1]], align_corners, sh if sh > 0 else None, sw if sw > 0 else None)


def bilinear_forward(x, out_hw, align_corners, sh, sw):
    return torch.ops.aten.upsample_bilinear2d(x, list(out_hw), align_corners, sh if sh > 0 else None,
                                               sw if sw > 0 else None)


def linear1d_backward(grad, l_in, align_corners, scales):
    n, c, l_out = grad.shape
    return torch.ops.aten.upsample_linear1d_backward(grad, [l_out], [n, c, l_in], align_corners,
                                                     scales if scales > 0 else None)


cases = []

# 1. The 1-D backward fallback on the public case bwd_frac_scales_f32 (Lin 7, Lout 16, scales 2.3): sizes only.
golden = json.load(open(os.path.join(GOLDEN, "cases.json")))["cases"]
frac = next(c for c in golden if c["name"] == "bwd_frac_scales_f32")
g = np.load(os.path.join(GOLDEN, frac["grad_out"]))
gin = save("bwd_frac_scales_f32_sizes_only.grad_out.npy", g)
g64 = torch.from_numpy(g.astype(np.float64))
cases.append(dict(op="upsample_linear1d_backward", name="bwd_frac_scales_f32_sizes_only", reference="sizes_only",
                  n=frac["n"], c=frac["c"], l_in=frac["l_in"], l_out=frac["l_out"], align_corners=False,
                  scales=frac["scales"], dtype="float32", grad_out=gin,
                  expected=save("bwd_frac_scales_f32_sizes_only.expected.npy",
                                linear1d_backward(g64, frac["l_in"], False, 0.0).numpy()),
                  bound=save("bwd_frac_scales_f32_sizes_only.bound.npy",
                             linear1d_backward(g64.abs(), frac["l_in"], False, 0.0).numpy()),
                  terms=axis_terms(frac["l_in"], frac["l_out"])))

# 2. A 2-D backward with fractional scales, with and without them (the fallback's sizes-only result).
rng = np.random.default_rng(20240611)
n, c, hin, win, hout, wout, sh, sw = 1, 3, 7, 5, 16, 11, 2.3, 2.25
gin, g64 = store_input("bi_bwd_frac_scales_f32.grad_out.npy", rng.uniform(-1, 1, (n, c, hout, wout)), "float32")
for suffix, ref_sh, ref_sw, reference in (("", sh, sw, "pytorch"), ("_sizes_only", 0.0, 0.0, "sizes_only")):
    name = "bi_bwd_frac_scales_f32" + suffix
    cases.append(dict(op="upsample_bilinear2d_backward", name=name, reference=reference, n=n, c=c, h_in=hin, w_in=win,
                      h_out=hout, w_out=wout, align_corners=False, scales_h=sh, scales_w=sw, dtype="float32",
                      grad_out=gin,
                      expected=save(name + ".expected.npy",
                                    bilinear_backward(g64, (hin, win), (hout, wout), False, ref_sh, ref_sw).numpy()),
                      bound=save(name + ".bound.npy",
                                 bilinear_backward(g64.abs(), (hin, win), (hout, wout), False, ref_sh, ref_sw).numpy()),
                      terms=axis_terms(hin, hout) * axis_terms(win, wout)))

# 3. The 2-D forward (aclnnUpsampleBilinear2d).
forward = [
    # name, n, c, hin, win, hout, wout, align_corners, scales_h, scales_w, dtype, reference
    ("bi_fwd_up2x_f32", 1, 2, 4, 5, 8, 10, False, 2.0, 2.0, "float32", "pytorch"),
    ("bi_fwd_mixed_ac_f32", 2, 3, 9, 6, 4, 13, True, 0.0, 0.0, "float32", "pytorch"),
    ("bi_fwd_down_f32", 1, 3, 37, 20, 11, 7, False, 0.0, 0.0, "float32", "pytorch"),
    ("bi_fwd_same_h_f32", 2, 2, 6, 5, 6, 9, False, 0.0, 0.0, "float32", "pytorch"),
    ("bi_fwd_frac_scales_f16", 1, 4, 7, 5, 16, 11, False, 2.3, 2.25, "float16", "pytorch"),
    ("bi_fwd_frac_scales_f16_sizes_only", 1, 4, 7, 5, 16, 11, False, 2.3, 2.25, "float16", "sizes_only"),
    ("bi_fwd_up_bf16", 2, 3, 10, 12, 25, 18, False, 0.0, 0.0, "bfloat16", "pytorch"),
]
inputs = {}
for name, n, c, hin, win, hout, wout, ac, sh, sw, dtype, reference in forward:
    key = (n, c, hin, win, dtype)
    if key not in inputs:
        values = rng.uniform(-1, 1, (n, c, hin, win))
        inputs[key] = store_input(name.replace("_sizes_only", "") + ".self.npy", values, dtype)
    sin, x64 = inputs[key]
    ref_sh, ref_sw = (sh, sw) if reference == "pytorch" else (0.0, 0.0)
    cases.append(dict(op="upsample_bilinear2d", name=name, reference=reference, n=n, c=c, h_in=hin, w_in=win,
                      h_out=hout, w_out=wout, align_corners=ac, scales_h=sh, scales_w=sw, dtype=dtype, self=sin,
                      expected=save(name + ".expected.npy",
                                    bilinear_forward(x64, (hout, wout), ac, ref_sh, ref_sw).numpy()),
                      bound=save(name + ".bound.npy",
                                 bilinear_forward(x64.abs(), (hout, wout), ac, ref_sh, ref_sw).numpy()),
                      terms=4))

with open(os.path.join(HERE, "cases.json"), "w") as f:
    json.dump({"generator": "PyTorch %s CPU, float64 reference (extra-golden/generate.py)" % torch.__version__,
               "cases": cases}, f, indent=1)
    f.write("\n")
print("wrote %d cases" % len(cases))
