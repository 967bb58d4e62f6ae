"""``bench/campaign.py --floor-requests 0`` leaves the floor out instead of dividing by zero.

Stop 26 found that it started the floor's servers and ended in ``ZeroDivisionError`` after
every campaign of the run had been measured (the figures lost). The campaigns, the trainer
path and the in-process path are replaced by fakes here: the floor is what is tested.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _bench(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_campaign", ROOT / "bench" / "campaign.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # its dataclasses look it up
    spec.loader.exec_module(module)
    return module


def _figures() -> dict[str, Any]:
    return {
        "eps": 10.0,
        "cpu_ms": 50.0,
        "client_cpu_ms": 20.0,
        "busiest_ms": 30.0,
        "start_s": 1.0,
        "per_process": {},
        "requests": {"POST /episodes": 1, "POST /grades": 1, "mcp": 4},
        "n": 1,
    }


def test_floor_requests_0_leaves_the_floor_out(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = _bench(monkeypatch)

    async def campaign(*args: Any, **kwargs: Any) -> list[dict[str, Any]]:
        return [_figures(), _figures()]

    monkeypatch.setattr(bench, "one_campaign", campaign)
    monkeypatch.setattr(bench, "in_process", lambda *a: {"eps": 100.0, "cpu_ms": 5.0})
    argv = ["campaign.py", "--seeds", "0", "--rounds", "1", "--ways", "before"]
    monkeypatch.setattr(sys, "argv", [*argv, "--trainer-rows", "0", "--floor-requests", "0"])

    bench.main()

    out = capsys.readouterr().out
    assert "floor: not measured (--floor-requests 0)" in out
    assert "in process (EpisodeManager + grade_bundle, no HTTP): 100 episodes/s" in out


def test_a_negative_floor_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    bench = _bench(monkeypatch)
    monkeypatch.setattr(sys, "argv", ["campaign.py", "--floor-requests", "-1"])
    with pytest.raises(SystemExit) as exc:
        bench.main()
    assert exc.value.code == 2
