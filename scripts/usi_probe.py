#!/usr/bin/env python3
"""The scripts' one USI client (gogo or Fairy-Stockfish), and the bench positions."""
import statistics
import subprocess


def medians(rows, *columns):
    """The median of each of `columns` over `rows` (tuples), in order."""
    return [statistics.median(r[i] for r in rows) for i in columns]


def bench_positions(gogo):
    """gogo's bench positions, as `gogo bench --list` prints them."""
    out = subprocess.run([gogo, "bench", "--list"], capture_output=True, text=True, check=True)
    return [line for line in out.stdout.splitlines() if line.strip()]


class Usi:
    def __init__(self, cmd, options=()):
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("usi")
        self.wait("usiok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait(self, prefix):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def search(self, sfen, go):
        """Returns (bestmove, last info dict) for `position sfen <sfen>` and `go`."""
        self.send("usinewgame")
        self.send("isready")
        self.wait("readyok")
        self.send(f"position sfen {sfen}")
        self.send(go)
        lines = self.wait("bestmove")
        info = {}
        for line in lines:
            words = line.split()
            if words[:1] != ["info"] or "nodes" not in words:
                continue
            parsed = {}
            for key in ("depth", "nodes", "nps", "time"):
                if key in words:
                    parsed[key] = int(words[words.index(key) + 1])
            if "score" in words:
                i = words.index("score")
                parsed["score"] = (words[i + 1], int(words[i + 2]))
            info = parsed
        return lines[-1].split()[1], info

    def perft(self, sfen, depth):
        """The leaf count of `go perft` (gogo and Fairy-Stockfish both answer it)."""
        self.send(f"position sfen {sfen}")
        self.send(f"go perft {depth}")
        return int(self.wait("Nodes searched")[-1].split(":")[1])

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()
