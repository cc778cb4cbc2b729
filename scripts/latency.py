#!/usr/bin/env python3
"""Latency of `stop` (after `go infinite` and after `go ponder`) and of `ponderhit` when the
time is already used up: the time from sending the command to reading `bestmove`.
Prints percentiles in milliseconds. Usage: latency.py GOGO [samples] [threads]"""
import random
import statistics
import sys
import time

from usi_probe import Usi


def percentiles(xs):
    xs = sorted(xs)
    pick = lambda q: xs[min(len(xs) - 1, int(q * len(xs)))]
    return f"p50 {pick(0.5):.2f}  p90 {pick(0.9):.2f}  p99 {pick(0.99):.2f}  max {xs[-1]:.2f} ms"


def main():
    gogo = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    threads = sys.argv[3] if len(sys.argv) > 3 else "1"
    rng = random.Random(5)
    e = Usi([gogo], [("Threads", threads), ("USI_Ponder", "true")])
    sfens = ["rbsgk/4p/5/P4/KGSBR b - 1", "3k1/G4/4g/PK1b1/5 w 2S1B1R1r1p 1",
             "r1s1k/2b1g/1P1r1/PG3/K1SB1 b - 1", "2k2/5/5/5/2K2 b RBGSPrbgsp 1"]
    results = {"stop after go infinite": [], "stop after go ponder": [], "ponderhit, time used up": []}
    for i in range(n):
        sfen = rng.choice(sfens)
        for kind, go, end in [("stop after go infinite", "go infinite", "stop"),
                              ("stop after go ponder", "go ponder btime 0 wtime 0 byoyomi 10000", "stop"),
                              ("ponderhit, time used up", "go ponder btime 0 wtime 0 byoyomi 1", "ponderhit")]:
            e.send(f"position sfen {sfen}")
            e.send(go)
            time.sleep(rng.uniform(0.005, 0.2))
            t = time.perf_counter()
            e.send(end)
            e.wait("bestmove")
            results[kind].append((time.perf_counter() - t) * 1000)
    e.quit()
    print(f"{n} samples each, Threads {threads}")
    for kind, xs in results.items():
        print(f"{kind:26} {percentiles(xs)}")


if __name__ == "__main__":
    main()
