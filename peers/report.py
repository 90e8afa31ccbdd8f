#!/usr/bin/env python3
"""Markdown tables for docs/PERFORMANCE.md from a run of the peers bench.

Usage: python3 peers/report.py <criterion dir> <stderr log> [<stderr log> ...]

Reads criterion's `new/benchmark.json` and `new/estimates.json` (median) under the
criterion directory (usually `target/criterion`) and the `iters` lines the bench prints
to stderr. Times are per query: criterion's per-iteration median divided by the batch
size (64 pose pairs per iteration; 256 steps for the warm-start path).
"""
import json
import pathlib
import sys

BATCH, PATH = 64, 256


def fmt_ns(ns):
    if ns is None:
        return "n/a"
    if ns >= 1000:
        return f"{ns / 1000:.2f} µs"
    return f"{ns:.0f} ns"


def ratio(a, b):
    return "n/a" if a is None or b is None else f"{a / b:.2f}"


def main():
    root, logs = pathlib.Path(sys.argv[1]), [pathlib.Path(a) for a in sys.argv[2:]]
    times = {}  # (group, function) -> ns per query
    for bench in root.glob("**/new/benchmark.json"):
        meta = json.loads(bench.read_text())
        est = json.loads((bench.parent / "estimates.json").read_text())
        group = meta["group_id"]
        per = PATH if group.startswith("warm_") else BATCH
        times[(group, meta["function_id"])] = est["median"]["point_estimate"] / per

    iters = {}  # "3d_f32/box_box/close" -> dict of fields
    lines = [ln for log in logs for ln in log.read_text().splitlines()]
    for line in lines:  # later logs override earlier ones
        if not line.startswith("iters\t"):
            continue
        _, key, *fields = line.split("\t")
        iters.setdefault(key, {}).update(f.split("=", 1) for f in fields)

    # Peers groups only (the root `gjk` bench writes to the same criterion directory).
    groups = sorted({g for g, _ in times if not g.startswith("warm_")
                     and len(g.split("/")) == 4 and g.split("/")[1] in ("distance", "intersects")})
    order = {"box_box": 0, "ball_capsule": 1, "hull32": 2, "hull1000": 3}
    conf = {"separated": 0, "close": 1, "overlapping": 2}
    sections = {}
    for g in groups:
        label, query, pair, config = g.split("/")
        sections.setdefault((label, query), []).append((pair, config))
    for (label, query), rows in sorted(sections.items()):
        print(f"\n#### {label}, `{query}`\n")
        dist = query == "distance"
        extra = " ours, parry's tolerance | ratio to parry | iterations |" if dist else ""
        print("| pair | config | ours | parry | ours/parry | parry GJK | ours/parry GJK | our iterations |" + extra)
        print("|---|---|---:|---:|---:|---:|---:|---:|" + ("---:|---:|---:|" if dist else ""))
        for pair, config in sorted(rows, key=lambda r: (order[r[0]], conf[r[1]])):
            g = f"{label}/{query}/{pair}/{config}"
            ours = times.get((g, "ours"))
            parry = times.get((g, "parry"))
            pgjk = times.get((g, "parry_gjk"))
            it = iters.get(f"{label}/{pair}/{config}", {}).get(
                "distance" if query == "distance" else "intersects", "?")
            r = ratio(ours, parry)
            if parry is not None and ours / parry > 1:
                r = f"**{r}**"
            rg = ratio(ours, pgjk)
            if pgjk is not None and ours / pgjk > 1:
                rg = f"**{rg}**"
            row = (f"| {pair} | {config} | {fmt_ns(ours)} | {fmt_ns(parry)} | {r} | "
                   f"{fmt_ns(pgjk) if pgjk else '—'} | {rg if pgjk else '—'} | {it} |")
            if dist:
                loose = times.get((g, "ours_parry_tol"))
                itl = iters.get(f"{label}/{pair}/{config}", {}).get("distance_parry_tol", "—")
                if loose is None:
                    row += " — | — | — |"
                else:
                    rl = ratio(loose, parry)
                    if parry is not None and loose / parry > 1:
                        rl = f"**{rl}**"
                    row += f" {fmt_ns(loose)} | {rl} | {itl} |"
            print(row)

    warm = sorted({g for g, _ in times if g.startswith("warm_")})
    if warm:
        print("\n#### Warm start (3D f64, `distance`, moving pair, 256 steps)\n")
        print("| pair | ours cold | ours warm | parry | parry GJK | warm/cold | warm/parry | iterations cold → warm |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        for g in sorted(warm, key=lambda g: order[g.split("/")[2]]):
            pair = g.split("/")[2]
            cold, w = times.get((g, "ours_cold")), times.get((g, "ours_warm"))
            parry, pgjk = times.get((g, "parry")), times.get((g, "parry_gjk"))
            it = iters.get(f"warm_3d_f64/{pair}", {})
            print(f"| {pair} | {fmt_ns(cold)} | {fmt_ns(w)} | {fmt_ns(parry)} | "
                  f"{fmt_ns(pgjk) if pgjk else '—'} | {ratio(w, cold)} | {ratio(w, parry)} | "
                  f"{it.get('cold', '?')} → {it.get('warm', '?')} |")


if __name__ == "__main__":
    main()
