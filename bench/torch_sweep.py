#!/usr/bin/env python3
"""Times PyTorch (CPU) on the cases of an `opscv bench --sweep --format csv` run and compares with opscv.

    bin/opscv bench --sweep --op all --format csv > sweep.csv
    python3 bench/torch_sweep.py sweep.csv            # or: ... | python3 bench/torch_sweep.py -

Each CSV row is rebuilt in PyTorch with the same shapes, dtype, alignCorners, scales and layout (transposed:
the input is (N, L, C) storage viewed as (N, C, L); strided_out: out a slice of rows L + max(1, L // 8) long;
nhwc: channels_last), on the row's thread count (torch.set_num_threads), writing into a preallocated out
(the aten .out / .grad_input overloads). Each timed call follows a copy of the same bytes as the sweep's
copy baseline (half the input's and out's bytes, on the same threads), as the sweep alternates the operator
with its copy: both sides then start each call with the caches the copy left, which matters where an
operator reads a fraction of its input (a strong downsampling of the forward); --warm times calls back to
back instead. It prints per case opscv's op_ms (from the CSV), PyTorch's median ms
and the speed-up (PyTorch ms / opscv ms: above 1, opscv is faster), then a summary. PyTorch is not a
dependency of the project; Debian's python3-torch is enough. Cases a PyTorch build does not support (e.g.
FP16 on the CPU in older versions) are listed as unsupported; each case runs in a child process, so that
one where PyTorch crashes (1.13 does on some BF16 strided views) is listed as crashed and the rest go on.
"""

import argparse
import csv
import json
import math
import statistics
import subprocess
import sys
import time

try:
    import torch
except ImportError:
    sys.exit("torch_sweep.py: PyTorch is not installed (e.g. apt-get install python3-torch)")

DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}
OPS = ("linear1d_backward", "linear1d", "bilinear2d", "bilinear2d_backward")


def shape(text):
    return [int(v) for v in text.split("x")]


def scales_of(text, two_d):
    """The CSV's scales: 'derived' (None: PyTorch derives them from the sizes, as opscv does) or the values."""
    if text == "derived":
        return (None, None) if two_d else (None,)
    values = [float(v) for v in text.split("x")]
    return tuple(values)


def filled(logical, dtype, layout):
    """The operator's input, logical shape `logical`, stored as the layout says, filled with ordinary values."""
    if layout == "transposed":
        n, c, length = logical
        t = torch.empty((n, length, c), dtype=torch.float32).permute(0, 2, 1)
    elif layout == "nhwc":
        n, c, h, w = logical
        t = torch.empty((n, h, w, c), dtype=torch.float32).permute(0, 3, 1, 2)
    else:
        t = torch.empty(logical, dtype=torch.float32)
    t.uniform_(-1.5, 1.5)
    return t.to(dtype) if dtype != torch.float32 else t


def output(logical, dtype, layout):
    """out: contiguous, a slice of wider rows (strided_out) or channels_last (nhwc); zeroed (pages touched)."""
    if layout == "strided_out":
        n, c, length = logical
        t = torch.zeros((n, c, length + max(1, length // 8)), dtype=dtype)[:, :, :length]
    elif layout == "nhwc":
        n, c, h, w = logical
        t = torch.zeros((n, h, w, c), dtype=dtype).permute(0, 3, 1, 2)
    else:
        t = torch.zeros(logical, dtype=dtype)
    return t


def call_for(row):
    """A function that runs the row's operator once into its preallocated out."""
    op = row["op"]
    dtype = DTYPES[row["dtype"]]
    layout = row["layout"]
    ins, outs = shape(row["in_shape"]), shape(row["out_shape"])
    align = row["align_corners"] == "true"
    two_d = op.startswith("bilinear2d")
    scales = scales_of(row["scales"], two_d)
    x = filled(ins, dtype, layout)
    out = output(outs, dtype, layout)
    aten = torch.ops.aten
    if op == "linear1d":
        return lambda: aten.upsample_linear1d.out(x, [outs[2]], align, scales[0], out=out)
    if op == "linear1d_backward":
        # x is gradOut (N, C, Lout); out has the forward input's shape (N, C, Lin).
        return lambda: aten.upsample_linear1d_backward.grad_input(x, [ins[2]], outs, align, scales[0], grad_input=out)
    if op == "bilinear2d":
        return lambda: aten.upsample_bilinear2d.out(x, outs[2:], align, scales[0], scales[1], out=out)
    if op == "bilinear2d_backward":
        return lambda: aten.upsample_bilinear2d_backward.grad_input(x, ins[2:], outs, align, scales[0], scales[1],
                                                                    grad_input=out)
    raise ValueError("unknown op " + op)


def copy_for(row):
    """The sweep's copy baseline for `row`: (input + out bytes) / 2 bytes copied, on torch's threads."""
    size = torch.empty((), dtype=DTYPES[row["dtype"]]).element_size()
    elements = sum(math.prod(shape(row[k])) for k in ("in_shape", "out_shape"))
    src = torch.ones(elements * size // 2, dtype=torch.uint8)
    dst = torch.zeros_like(src)
    return lambda: dst.copy_(src)


def median_ms(call, rounds, warmup_s, budget_s, before=lambda: None):
    """The median of `rounds` timed calls, each after `before` (untimed), after a warm-up; fewer rounds where
    one call alone is long."""
    t0 = time.perf_counter()
    call()
    first = time.perf_counter() - t0
    start = time.perf_counter()
    while time.perf_counter() - start < warmup_s:
        before()
        call()
    times = []
    for _ in range(max(1, min(rounds, int(budget_s / max(first, 1e-9))))):
        before()
        t0 = time.perf_counter_ns()
        call()
        times.append(time.perf_counter_ns() - t0)
    return statistics.median(times) / 1e6


def one_case(args):
    """In a child process (a crash of PyTorch, as 1.13 has on some bf16 strided views, loses one case only)."""
    row = json.loads(args.one)
    torch.set_num_threads(args.threads or int(row["threads"]))
    try:
        before = (lambda: None) if args.warm else copy_for(row)
        print("ms %r" % median_ms(call_for(row), args.rounds, args.warmup, args.budget, before))
    except (RuntimeError, NotImplementedError) as e:
        print("unsupported " + str(e).splitlines()[0])


def timed_in_child(row, args):
    """PyTorch's median ms for `row`, or None with the reason."""
    command = [sys.executable, __file__, "-", "--one", json.dumps(row), "--rounds", str(args.rounds), "--warmup",
               str(args.warmup), "--budget", str(args.budget)] + (["--threads", str(args.threads)] if args.threads else [])
    command += ["--warm"] if args.warm else []
    child = subprocess.run(command, capture_output=True, text=True)
    answer = child.stdout.strip()
    if child.returncode != 0:
        return None, "crashed (exit %d)" % child.returncode
    if answer.startswith("ms "):
        return float(answer[3:]), None
    return None, answer


def p90(values):
    s = sorted(values)
    return s[-(-9 * len(s) // 10) - 1]  # nearest rank, as the sweep's summary


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("csv", help="the sweep's CSV ('-' for stdin)")
    parser.add_argument("--rounds", type=int, default=7, help="timed calls per case (median; default 7)")
    parser.add_argument("--warmup", type=float, default=0.3, help="warm-up seconds per case (default 0.3)")
    parser.add_argument("--threads", type=int, help="override the CSV's thread count")
    parser.add_argument("--budget", type=float, default=5.0,
                        help="seconds of timed calls per case at most (fewer rounds for slow calls; default 5)")
    parser.add_argument("--no-cache", action="store_true", help="skip the cache-resident (l2_) cases")
    parser.add_argument("--warm", action="store_true",
                        help="time calls back to back, without the sweep's copy between them (warm caches)")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        one_case(args)
        return

    source = sys.stdin if args.csv == "-" else open(args.csv, newline="")
    rows = list(csv.DictReader(source))
    if args.no_cache:
        rows = [r for r in rows if not r["case"].startswith("l2_")]
    print("PyTorch %s, %s" % (torch.__version__, "CPU"), file=sys.stderr)
    header = "%-26s %-19s %-4s %-22s %-22s %-11s %10s %10s %8s" % (
        "case", "op", "dt", "in_shape", "out_shape", "layout", "opscv ms", "torch ms", "speed-up")
    print(header)
    print("-" * len(header))
    results = []
    for row in rows:
        ours = float(row["op_ms"])
        theirs, why = timed_in_child(row, args)
        if theirs is not None:
            speedup = theirs / ours
            results.append((row, speedup))
            cells = ("%10.4f" % theirs, "%8.2f" % speedup)
        else:
            results.append((row, None))
            cells = ("%10s" % ("unsupported" if why.startswith("unsupported") else "crashed"), "%8s" % "-")
            print("torch_sweep.py: %s %s: %s" % (row["op"], row["case"], why), file=sys.stderr)
        print("%-26s %-19s %-4s %-22s %-22s %-11s %10.4f %s %s" % (
            row["case"], row["op"], row["dtype"], row["in_shape"], row["out_shape"], row["layout"], ours, *cells))
        sys.stdout.flush()

    print()
    print("%-40s %5s %6s %8s %8s %8s %11s" % ("speed-up (torch ms / opscv ms)", "cases", "faster", "median", "p10",
                                              "worst", "unsup/crash"))
    groups = {}
    for group in ("memory-bound", "cache-resident (l2_)"):
        rows_of = [(row, v) for row, v in results if row["case"].startswith("l2_") == group.startswith("cache")]
        keys = [("all", lambda row: True)]
        keys += [(d, lambda row, d=d: row["dtype"] == d) for d in DTYPES]
        keys += [(o, lambda row, o=o: row["op"] == o) for o in OPS]
        for name, keep in keys:
            values = [v for row, v in rows_of if keep(row)]
            if values:
                groups[group + ", " + name] = values
    for key, values in groups.items():
        known = [v for v in values if v is not None]
        if not known:
            print("%-40s %5d %6s %8s %8s %8s %11d" % (key, len(values), "-", "-", "-", "-", len(values)))
            continue
        # The low tail matters here (where opscv is slowest against PyTorch): p10 = the 90th percentile of 1/x.
        p10 = 1 / p90([1 / v for v in known])
        print("%-40s %5d %6d %8.2f %8.2f %8.2f %11d" % (key, len(values), sum(v > 1 for v in known),
                                                        statistics.median(known), p10, min(known),
                                                        len(values) - len(known)))


if __name__ == "__main__":
    main()
