"""The progress of a run of points (scc-bench run, scc-report): a bar on a
terminal (rich), plain lines elsewhere."""
from __future__ import annotations

import os
import sys
import threading
import time


class Progress:
    """Points done, running and failed, and the time left: a bar on a
    terminal; elsewhere (a log, a pipe) a plain line on stderr when the
    run starts, every @interval seconds (default 30, or
    $SCC_PROGRESS_INTERVAL) and when it ends, as tqdm and pip do."""

    def __init__(self, total: int, name: str, mode: str | None,
                 interval: float | None = None, cached: int = 0):
        self.total, self.done, self.failed, self.running = total, 0, 0, 0
        self.name, self.cached = name, cached
        self.p = None
        self.t0 = time.monotonic()
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.thread = None
        if mode == "bar" and total:
            from rich import progress as rp
            self.p = rp.Progress(rp.TextColumn("{task.description}"), rp.BarColumn(),
                                 rp.MofNCompleteColumn(), rp.TextColumn("{task.fields[state]}"),
                                 rp.TimeElapsedColumn(), rp.TextColumn("left"),
                                 rp.TimeRemainingColumn(), transient=True)
            self.task = self.p.add_task(name, total=total, state="")
            self.p.start()
        elif mode == "lines" and total:
            if interval is None:
                interval = progress_interval()
            self.line()
            self.thread = threading.Thread(target=self._tick, args=(interval,), daemon=True,
                                           name="scc-bench-progress")
            self.thread.start()

    def _tick(self, interval: float):
        while not self.stop.wait(interval):
            self.line()

    def line(self, end: bool = False):
        """One plain progress line on stderr."""
        with self.lock:
            done, failed, running = self.done, self.failed, self.running
        el = time.monotonic() - self.t0
        if end:
            left = "finished"
        elif done:
            left = f"about {clock(el / done * (self.total - done))} left"
        else:
            left = "time left not known yet"
        cached = f" ({self.cached} more cached)" if self.cached else ""
        print(f"{self.name}: {done}/{self.total} points done{cached}, {failed} failed, "
              f"{running} running, {clock(el)} elapsed, {left}", file=sys.stderr, flush=True)

    def update(self, done=0, failed=0, running=None):
        with self.lock:
            self.done += done
            self.failed += failed
            if running is not None:
                self.running = running
        if self.p:
            self.p.update(self.task, completed=self.done,
                          state=f"running {self.running}, failed {self.failed}")

    def close(self):
        if self.p:
            self.p.stop()
        if self.thread:
            self.stop.set()
            self.thread.join()
            with self.lock:
                self.running = 0
            self.line(end=True)


def progress_interval() -> float:
    """Seconds between two plain progress lines: $SCC_PROGRESS_INTERVAL,
    else 30."""
    v = os.environ.get("SCC_PROGRESS_INTERVAL", "")
    try:
        x = float(v)
    except ValueError:
        return 30.0
    return x if x > 0 else 30.0


def clock(s: float) -> str:
    """Seconds as H:MM:SS or M:SS."""
    s = int(round(s))
    h, m = divmod(s, 3600)
    return f"{h}:{m // 60:02d}:{m % 60:02d}" if h else f"{m // 60}:{m % 60:02d}"
