"""The GPU's SM clock, power draw and clock-limit reasons while a benchmark times a kernel.

A kernel's time on a power-capped GPU depends on the clock it is given, and that clock on how much power
it draws. Measured on the H200 of our suite (700 W limit, 1980 MHz maximum): attention kernels ran with
the software power cap active the whole time, at 1480-1750 MHz, and two kernels doing the same work ran
100 MHz apart (FlashAttention-3 at ~1490 MHz, ours at ~1590 MHz, causal D=128: FA3 takes fewer cycles and
draws more power per cycle). Two providers' time ratio is only readable beside the clocks they ran at, so
the benchmark suite records them for every timed row.

`ClockSampler` runs one `nvidia-smi --query-gpu=... -lms PERIOD` process beside the benchmark and keeps its
samples; `ClockSampler.window()` summarizes those taken while a block of code ran. Where nvidia-smi is
missing the sampler stays off and every window is empty: the suite runs the same, without clock columns.

Power comes from `power.draw.instant` where the driver has it: on Ampere and newer, `power.draw` is NVML's
average over the last second, longer than one timing (~0.1-0.3 s), so a window read mostly the power of what
ran before it (an H100 suite of 2026-12-07 printed 373 W for FlashAttention-3's first timing after the
checks, then 690 W twice at the same clock).
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

#: The board power fields of `nvidia-smi --query-gpu`, best first: the reading at the sample (drivers from
#: 530), else the last second's average.
POWER_FIELDS = ("power.draw.instant", "power.draw")


def query_fields(power_field: str = POWER_FIELDS[-1]) -> tuple[str, str, str]:
    """What `nvidia-smi --query-gpu` reports for each sample: SM clock, board power, clock-limit reasons."""
    return ("clocks.sm", power_field, "clocks_throttle_reasons.active")


#: NVML's clock-limit reasons (`nvmlClocksEventReasons`), as `clocks_throttle_reasons.active` reports them.
LIMIT_REASONS = {
    0x1: "idle",
    0x2: "application clocks",
    0x4: "SW power cap",
    0x8: "HW slowdown",
    0x10: "sync boost",
    0x20: "SW thermal",
    0x40: "HW thermal",
    0x80: "HW power brake",
    0x100: "display clock",
}


@dataclass(frozen=True)
class Sample:
    """One reading: when (`time.monotonic()`), the SM clock (MHz), the board power (W) and the active
    clock-limit reasons (a bit mask; None where the driver does not report them)."""

    t: float
    mhz: float
    watts: float | None
    reasons: int | None


def limit_names(mask: int) -> list[str]:
    """The names of the reasons set in `mask`; bits NVML does not name come back as hex."""
    names = [name for bit, name in LIMIT_REASONS.items() if mask & bit]
    unknown = mask & ~sum(LIMIT_REASONS)
    return names + ([hex(unknown)] if unknown else [])


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:  # '[N/A]', '[Not Supported]'
        return None


def parse_sample(line: str, t: float) -> Sample | None:
    """One line of `nvidia-smi --format=csv,noheader,nounits` output for `query_fields()`; None when it holds
    no clock."""
    values = [value.strip() for value in line.split(",")]
    if len(values) != len(query_fields()):
        return None
    mhz = _number(values[0])
    if mhz is None:
        return None
    try:
        reasons = int(values[2], 16)
    except ValueError:
        reasons = None
    return Sample(t, mhz, _number(values[1]), reasons)


def summarize(samples: list[Sample]) -> dict[str, Any] | None:
    """Mean, min and max SM clock (MHz), mean power (W) and every limit reason seen; None without samples."""
    if not samples:
        return None
    clocks = [sample.mhz for sample in samples]
    watts = [sample.watts for sample in samples if sample.watts is not None]
    mask = 0
    for sample in samples:
        mask |= sample.reasons or 0
    return {
        "mhz": sum(clocks) / len(clocks),
        "min_mhz": min(clocks),
        "max_mhz": max(clocks),
        "watts": sum(watts) / len(watts) if watts else None,
        "limits": limit_names(mask),
        "samples": len(samples),
    }


def _query(gpu: int, fields: tuple[str, ...] | list[str]) -> list[str]:
    """The nvidia-smi command line reading `fields` of GPU `gpu` as bare CSV numbers."""
    return ["nvidia-smi", "-i", str(gpu), f"--query-gpu={','.join(fields)}", "--format=csv,noheader,nounits"]


def readable_power_field(gpu: int = 0) -> str:
    """The first of POWER_FIELDS that nvidia-smi reads as a number on GPU `gpu` (the last one where none is:
    an older driver rejects the query, a board without the sensor says '[N/A]')."""
    for field in POWER_FIELDS[:-1]:
        try:
            done = subprocess.run(_query(gpu, [field]), capture_output=True, text=True, timeout=10)
        except (OSError, subprocess.SubprocessError):
            continue
        if done.returncode == 0 and _number(done.stdout.strip()) is not None:
            return field
    return POWER_FIELDS[-1]


class ClockSampler:
    """Samples GPU `gpu`'s clock every `period_ms` from a background nvidia-smi until `close()`. `command`
    replaces nvidia-smi (it must print `query_fields()`' CSV lines); `power_field` then names what its power
    column is."""

    def __init__(
        self, period_ms: int = 25, gpu: int = 0, command: list[str] | None = None, power_field: str | None = None
    ):
        self.period_ms = period_ms
        self.period_s = period_ms / 1000
        self.gpu = gpu
        self.command = command
        #: The nvidia-smi field the watts come from; chosen by `start()` (`readable_power_field`) unless given.
        self.power_field = power_field
        self.samples: list[Sample] = []
        self._process: subprocess.Popen | None = None
        self._reader: threading.Thread | None = None
        self._lock = threading.Lock()

    def start(self) -> bool:
        """Start sampling; False (and no sampling) where the command cannot run."""
        if self._process is not None:
            return True
        if shutil.which(self.command[0] if self.command else "nvidia-smi") is None:
            return False
        if self.command is None:
            self.power_field = self.power_field or readable_power_field(self.gpu)
            self.command = [*_query(self.gpu, query_fields(self.power_field)), "-lms", str(self.period_ms)]
        try:
            self._process = subprocess.Popen(
                self.command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1
            )
        except OSError:
            return False
        self._reader = threading.Thread(target=self._read, name="clock-sampler", daemon=True)
        self._reader.start()
        return True

    def _read(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        for line in self._process.stdout:
            sample = parse_sample(line, time.monotonic())
            if sample is not None:
                with self._lock:
                    self.samples.append(sample)

    def between(self, start: float, end: float) -> list[Sample]:
        """The samples taken in [start, end] (`time.monotonic()` seconds)."""
        with self._lock:
            return [sample for sample in self.samples if start <= sample.t <= end]

    @contextlib.contextmanager
    def window(self) -> Iterator[dict[str, Any]]:
        """Yields a dict that, once the block ends, holds `summarize` of the samples taken while it ran, and
        of the first one after it (so that a block of a few periods is not left empty); it stays empty when
        the sampler is off."""
        summary: dict[str, Any] = {}
        start = time.monotonic()
        try:
            yield summary
        finally:
            end = time.monotonic()
            if self._process is not None:
                late = end + 2 * self.period_s
                while not self.between(end, late) and time.monotonic() < late and self._alive():
                    time.sleep(self.period_s / 4)
                summary.update(summarize(self.between(start, late)) or {})

    def _alive(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def close(self) -> None:
        """Stop the nvidia-smi process (the samples stay)."""
        if self._process is not None:
            self._process.terminate()
            try:
                self._process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._process.kill()
            if self._reader is not None:
                self._reader.join(timeout=5)

    def __enter__(self) -> ClockSampler:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
