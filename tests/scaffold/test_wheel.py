"""The vendor path end to end: `mcpgym new` in a fresh virtual environment, the commands it
prints (an editable install, `mcpgym validate`, which stamps the source tree's lock), then
build the wheel, install it beside mcpgym, `mcpgym validate --check` and `mcpgym serve` it.

The fresh environment gets mcpgym's own distributions from this checkout (server, grading,
clients: so `mcpgym new` runs from the installed clients wheel, template as package data)
and third-party packages at the versions of uv.lock. uv works offline from its cache when
it can and goes to the registry only if the cache lacks something. Marked ``wheel``
(deselect with ``-m "not wheel"``); about 30 s on 2 busy cores with a warm uv cache.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import socket
import subprocess
import sys
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

import anyio
import httpx
import pytest
from anyio.streams.text import TextReceiveStream

ROOT = Path(__file__).resolve().parents[2]
NAME = "wheel-check"
PACKAGE = "mcpgym_wheel_check"

VALIDATE_SEEDS = 5
"""Seeds per band for `mcpgym validate` here, twice (the default 20 passes too: 189 episodes
in about 8 s on 2 busy cores, against 54 with 5)."""

pytestmark = [pytest.mark.wheel, pytest.mark.slow]  # a fresh venv and a wheel build


@dataclass(frozen=True)
class Installed:
    """A fresh venv with mcpgym and the scaffolded environment's wheel installed."""

    venv: Path
    source: Path
    wheel: Path
    tmp: Path
    new_output: str
    printed_validate: str

    def bin(self, name: str) -> str:
        return str(self.venv / ("Scripts" if os.name == "nt" else "bin") / name)


def _uv() -> str:
    uv = shutil.which("uv")
    if uv is None:
        pytest.skip("uv is not on PATH (.ci/run installs it)")
    return uv


def _run(args: list[str], env: dict[str, str], cwd: Path | None = None) -> str:
    done = subprocess.run(args, capture_output=True, text=True, check=False, env=env, cwd=cwd)
    assert done.returncode == 0, f"{' '.join(args)}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def _printed(said: str) -> list[str]:
    """The commands `mcpgym new` printed under ``next:`` (comment lines left out)."""
    lines = said.splitlines()
    after = lines[lines.index("next:") + 1 :]
    return [line.strip() for line in after if line.startswith("  ") and "#" not in line[:4]]


def _uv_cached(uv: str, args: list[str], env: dict[str, str]) -> None:
    """``uv ARGS`` offline from the cache; online only when the cache lacks a package."""
    done = subprocess.run(
        [uv, *args, "--offline"], capture_output=True, text=True, check=False, env=env
    )
    if done.returncode != 0:
        _run([uv, *args], env)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    uv = _uv()
    tmp = tmp_path_factory.mktemp("wheel")
    env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never", "VIRTUAL_ENV": str(tmp / "venv")}
    env.pop("PYTHONPATH", None)
    _run([uv, "venv", "-q", "--python", sys.executable, str(tmp / "venv")], env)
    pins = tmp / "constraints.txt"
    _run(
        [uv, "export", "-q", "--frozen", "--no-hashes", "--no-emit-workspace"]
        + ["--all-packages", "--no-dev", "-o", str(pins)],
        env,
        cwd=ROOT,
    )
    mcpgym = [str(ROOT / p) for p in ("server", "grading", "clients")]
    _uv_cached(uv, ["pip", "install", "-q", "-c", str(pins), *mcpgym], env)
    mcpgym_bin = tmp / "venv" / ("Scripts" if os.name == "nt" else "bin") / "mcpgym"
    source = tmp / f"mcpgym-{NAME}"  # the default folder: ./mcpgym-NAME
    said = _run([str(mcpgym_bin), "new", NAME], env, cwd=tmp)
    # The printed commands, as printed (no active venv needed), from another folder:
    # an editable install, then validate, which stamps the lock in the source tree.
    install, validate, _serve = _printed(said)
    bare = {k: v for k, v in env.items() if k != "VIRTUAL_ENV"}
    _uv_cached(uv, shlex.split(install)[1:], bare)
    validated = _run([*shlex.split(validate), "--seeds", str(VALIDATE_SEEDS)], bare, cwd=tmp)
    _uv_cached(uv, ["build", "-q", "--wheel", "--out-dir", str(tmp / "dist"), str(source)], env)
    (wheel,) = (tmp / "dist").glob("*.whl")
    reinstall = ["--reinstall-package", f"mcpgym-{NAME}"]  # the wheel replaces the editable
    _uv_cached(uv, ["pip", "install", "-q", *reinstall, "-c", str(pins), str(wheel)], env)
    return Installed(
        venv=tmp / "venv",
        source=source,
        wheel=wheel,
        tmp=tmp,
        new_output=said,
        printed_validate=validated,
    )


def test_mcpgym_new_from_the_installed_wheel_says_what_it_made(installed: Installed) -> None:
    lines = installed.new_output.splitlines()
    assert lines[0] == f"created mcpgym-{NAME} in {installed.source} (17 files)"
    assert f"  locked src/{PACKAGE}/mcpgym.lock" in "\n".join(lines)
    recorded = [line.split()[1] for line in lines if line.startswith("  recorded ")]
    assert recorded == [
        f"src/{PACKAGE}/reference_runs/recount-item/{band}-100.json"
        for band in ("easy", "medium", "hard")
    ]
    install, validate, serve = _printed(installed.new_output)
    assert install.startswith(f"uv pip install --python {installed.bin('python')}")
    assert install.endswith(f" -e {installed.source}")
    assert validate == f"{installed.bin('mcpgym')} validate {NAME}"
    assert serve == f"{installed.bin('mcpgym')} serve {NAME} --port 8000"


def test_the_printed_commands_install_validate_and_stamp_the_source_tree(
    installed: Installed,
) -> None:
    source_lock = installed.source / "src" / PACKAGE / "mcpgym.lock"
    assert f"passed; stamped {source_lock}" in installed.printed_validate
    stamped = tomllib.loads(source_lock.read_text())
    assert stamped["validation"]["digest"] == stamped["digest"]
    assert stamped["validation"]["seeds"] == VALIDATE_SEEDS


def test_the_wheel_ships_the_snapshot_the_lock_and_the_recorded_runs(installed: Installed) -> None:
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    for name in ("data/snapshot.db", "mcpgym.lock", "tools.py", "families.py"):
        assert f"{PACKAGE}/{name}" in names
    runs = sorted(n for n in names if n.startswith(f"{PACKAGE}/reference_runs/"))
    assert runs == [
        f"{PACKAGE}/reference_runs/recount-item/{band}-100.json"
        for band in ("easy", "hard", "medium")
    ]
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    text = zipfile.ZipFile(installed.wheel).read(entry_points).decode()
    assert f"{NAME} = {PACKAGE}:environment" in text


def test_the_installed_wheel_validates_with_check_and_keeps_its_lock(installed: Installed) -> None:
    report = installed.tmp / "validate.json"
    command = [installed.bin("mcpgym"), "validate", NAME, "--check", "--seeds", str(VALIDATE_SEEDS)]
    done = subprocess.run(
        [*command, "--json", str(report)],
        capture_output=True,
        text=True,
        check=False,
        cwd=installed.tmp,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(report.read_text())
    assert result["passed"] is True
    assert [(c["id"], c["passed"]) for c in result["conditions"]] == [(i, True) for i in range(8)]
    assert result["episodes"] > 3 * VALIDATE_SEEDS * 3  # reference, null, random per variant
    where = subprocess.run(
        [installed.bin("python"), "-c", f"import {PACKAGE}; print({PACKAGE}.__file__)"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert "site-packages" in where  # the wheel, not the editable source
    assert "--check: the lock file was not stamped" in done.stdout
    shipped = zipfile.ZipFile(installed.wheel).read(f"{PACKAGE}/mcpgym.lock")
    assert (Path(where).parent / "mcpgym.lock").read_bytes() == shipped  # RECORD still holds
    lock = tomllib.loads(shipped.decode())
    assert lock["validation"]["digest"] == lock["digest"] == result["lock"]  # from the source


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.anyio
async def test_the_installed_environment_serves_episodes(installed: Installed) -> None:
    port = _free_port()
    command = [installed.bin("mcpgym"), "serve", NAME, "--port", str(port)]
    command += ["--store", str(installed.tmp / "episodes")]
    base = f"http://127.0.0.1:{port}"
    output = ""
    with anyio.fail_after(60):
        async with await anyio.open_process(
            command,
            cwd=installed.tmp,
            stderr=subprocess.STDOUT,
            env={**os.environ, "MCPGYM_CONTROL_TOKEN": "wheel-test-token"},
        ) as proc:
            assert proc.stdout is not None
            try:
                async for chunk in TextReceiveStream(proc.stdout):
                    output += chunk
                    if "Uvicorn running on" in output:
                        break
                assert "Uvicorn running on" in output, output
                control = {"authorization": "Bearer wheel-test-token"}
                async with httpx.AsyncClient(
                    base_url=base, trust_env=False, headers=control
                ) as http:
                    health = (await http.get("/healthz")).json()
                    tasks = (await http.get("/tasks")).json()
                    opened = await http.post(
                        "/episodes", json={"task": "recount-item", "band": "hard", "seed": 3}
                    )
                    episode = opened.json()
                    ended = await http.post(f"/episodes/{episode['episode_id']}/end")
            finally:
                proc.terminate()
                await proc.wait()
    assert health["env"] == NAME and health["ok"] is True
    assert [(t["name"], t["bands"]) for t in tasks["tasks"]] == [
        ("recount-item", ["easy", "medium", "hard"])
    ]
    assert opened.status_code == 201, episode
    assert episode["variant_id"] == f"{NAME}/recount-item@hard#3"
    assert episode["mcp_url"].startswith(f"{base}/episodes/")
    assert "than the system shows" in episode["instruction"]
    assert ended.status_code == 200 and ended.json()["termination"] == "ended"
    assert ended.json()["unlocked"] is False
