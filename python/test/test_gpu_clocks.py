"""The clock sampler the benchmark suite runs beside its timings: parsing nvidia-smi's samples, naming the
clock limits, summarizing a timing window, a live sampler fed by a stand-in for nvidia-smi, and the
suite's clock table. No GPU needed."""

import os
import sys
import time

import pytest

from tlx.tools import bench, gpu_clocks


def test_parse_sample_reads_clock_power_and_limit_reasons():
    sample = gpu_clocks.parse_sample("1635, 689.12, 0x0000000000000004\n", 2.0)
    assert sample == gpu_clocks.Sample(2.0, 1635.0, 689.12, 0x4)
    assert gpu_clocks.parse_sample("1980, [N/A], [Not Supported]", 0.0) == gpu_clocks.Sample(0.0, 1980.0, None, None)
    assert gpu_clocks.parse_sample("[N/A], 80.0, 0x1", 0.0) is None
    assert gpu_clocks.parse_sample("Failed to initialize NVML", 0.0) is None


def test_limit_names():
    assert gpu_clocks.limit_names(0) == []
    assert gpu_clocks.limit_names(0x4) == ["SW power cap"]
    assert gpu_clocks.limit_names(0x1 | 0x40) == ["idle", "HW thermal"]
    assert gpu_clocks.limit_names(0x4 | 0x10000) == ["SW power cap", "0x10000"]


def test_summarize():
    samples = [
        gpu_clocks.Sample(0.0, 1500.0, 650.0, 0x4),
        gpu_clocks.Sample(0.1, 1700.0, None, 0x0),
        gpu_clocks.Sample(0.2, 1600.0, 690.0, 0x20),
    ]
    assert gpu_clocks.summarize(samples) == {
        "mhz": pytest.approx(1600.0),
        "min_mhz": 1500.0,
        "max_mhz": 1700.0,
        "watts": pytest.approx(670.0),
        "limits": ["SW power cap", "SW thermal"],
        "samples": 3,
    }
    assert gpu_clocks.summarize([]) is None


def _stand_in(clocks: str) -> list[str]:
    """A stand-in for `nvidia-smi -lms 10`: prints the clocks in turn, one sample per 10 ms, forever."""
    script = (
        "import itertools, time\n"
        f"for mhz in itertools.cycle({clocks!r}.split()):\n"
        "    print(f'{mhz}, 660.5, 0x0000000000000004', flush=True)\n"
        "    time.sleep(0.01)\n"
    )
    return [sys.executable, "-u", "-c", script]


def test_sampler_summarizes_what_ran_inside_a_window():
    with gpu_clocks.ClockSampler(period_ms=10, command=_stand_in("1500 1700")) as sampler:
        assert sampler.start()  # already running: starting again changes nothing
        with sampler.window() as summary:
            time.sleep(0.3)
        assert summary["samples"] >= 5
        assert summary["min_mhz"] == 1500.0 and summary["max_mhz"] == 1700.0
        assert 1500.0 < summary["mhz"] < 1700.0
        assert summary["watts"] == pytest.approx(660.5) and summary["limits"] == ["SW power cap"]
        with sampler.window() as short:  # shorter than a period: the next sample still describes it
            pass
        assert short["samples"] >= 1
    assert sampler._process.poll() is not None, "closing stops the sampling process"


def test_sampler_without_nvidia_smi_stays_off():
    sampler = gpu_clocks.ClockSampler(command=["no-such-nvidia-smi-here", "-lms", "10"])
    assert not sampler.start()
    with sampler.window() as summary:
        pass
    assert summary == {}
    sampler.close()


class _TimedRunner(bench.Runner):
    """A Runner whose timings take 50 ms each and whose clock comes from a stand-in sampler."""

    def bench(self, fn):
        fn()
        time.sleep(0.05)
        return 2.0

    def device_time(self, fn):
        time.sleep(0.05)
        return 1.5


def test_runner_records_the_clock_of_each_time_and_the_page_shows_it():
    with gpu_clocks.ClockSampler(period_ms=10, command=_stand_in("1600")) as sampler:
        runner = _TimedRunner(device="cpu", clocks=sampler)
        result = runner.measure("p", lambda: bench.Call(lambda: "out"), lambda out: 1e-3, 4e9, 1e-2)
    assert result["status"] == "ok" and set(result["clock"]) == {"ms", "device_ms"}
    assert result["clock"]["ms"]["mhz"] == 1600.0 and result["clock"]["device_ms"]["samples"] >= 1

    other = {"status": "ok", "ms": 1.0}  # timed without a sampler
    case = {"label": "1x1x1", "dtype": "bf16", "providers": {"cuBLAS": other, "TLX coop": result}}
    headers, rows, keys, notes = bench.clock_table("gemm", [case])
    assert headers[:keys] == ["M x N x K", "dtype"] and headers[keys:] == bench.SECTIONS["gemm"]["providers"]
    assert rows[0][keys:] == ["-", "-", "1600 / 1600", "-", "-"]
    assert notes == ["board power 660-660 W (means per timing)", "clock limits active: SW power cap"]
    assert bench.clock_table("gemm", [{**case, "providers": {"cuBLAS": other}}]) is None

    results = {"environment": {}, "settings": {}, "gemm": [case]}
    page = bench.markdown_page(results, [])
    assert "SM clock while each provider was timed (mean MHz, events / graph; board power 660-660 W" in page
    assert "| 1x1x1 | bf16 | - | - | 1600 / 1600 | - | - |" in page

    # The note names the power field the suite read, and warns where it is a 1 s average.
    results["settings"]["power_field"] = "power.draw.instant"
    assert "board power 660-660 W (means per timing, nvidia-smi `power.draw.instant`)" in bench.markdown_page(
        results, []
    )
    averaged = bench.clock_table("gemm", [case], "power.draw")[3][0]
    assert averaged.endswith("nvidia-smi `power.draw`: 1 s averages, so partly the timing before)")


def _fake_nvidia_smi(tmp_path, monkeypatch, instant: str, status: int = 0) -> None:
    """An `nvidia-smi` first on PATH: a query of `power.draw.instant` prints `instant` and exits with `status`;
    the sampling query prints a sample whose power says which field it was asked for (instant 690, average 400)."""
    script = tmp_path / "nvidia-smi"
    script.write_text(
        f"#!{sys.executable}\n"
        "import sys, time\n"
        "query = next(a for a in sys.argv if a.startswith('--query-gpu='))[len('--query-gpu='):].split(',')\n"
        "if query == ['power.draw.instant']:\n"
        f"    print({instant!r})\n"
        f"    sys.exit({status})\n"
        "watts = '690.0' if 'power.draw.instant' in query else '400.0'\n"
        "while True:\n"
        "    print(f'1500, {watts}, 0x4', flush=True)\n"
        "    time.sleep(0.01)\n"
    )
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")


@pytest.mark.parametrize(
    "instant, status, field, watts",
    [
        ("689.5", 0, "power.draw.instant", 690.0),
        ('Field "power.draw.instant" is not a valid field to query.', 2, "power.draw", 400.0),  # driver < 530
        ("[N/A]", 0, "power.draw", 400.0),  # no instant sensor on this board
    ],
)
def test_sampler_reads_the_instant_power_where_the_driver_has_it(tmp_path, monkeypatch, instant, status, field, watts):
    _fake_nvidia_smi(tmp_path, monkeypatch, instant, status)
    assert gpu_clocks.readable_power_field() == field
    with gpu_clocks.ClockSampler(period_ms=10) as sampler:
        assert sampler.power_field == field
        with sampler.window() as summary:
            time.sleep(0.1)
    assert summary["watts"] == pytest.approx(watts) and summary["mhz"] == 1500.0
