"""stdio: one episode per process, sealed at end of input, for clients of both eras."""

from __future__ import annotations

import sys
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters

from mcpgym_server import EpisodeStore

pytestmark = pytest.mark.anyio

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import sys, anyio
from pathlib import Path
from tests.toyenv import make_toy_env
from mcpgym_server._stdio import serve_stdio
env = make_toy_env(Path(sys.argv[1]))
anyio.run(lambda: serve_stdio(env, task="set-target", band="medium", seed=2, store_dir=sys.argv[2]))
"""


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_stdio_episode_is_sealed_at_eof(tmp_path: Path, mode: str) -> None:
    store = tmp_path / "episodes"
    params = StdioServerParameters(
        command=sys.executable,
        args=["-c", SCRIPT, str(tmp_path / "pkg"), str(store)],
        cwd=str(ROOT),
    )
    with anyio.fail_after(30):
        async with Client(params, mode=mode) as client:  # type: ignore[arg-type]
            put = await client.call_tool("put", {"key": "k", "value": mode})
            assert not put.is_error
            assert (await client.call_tool("get", {"key": "k"})).structured_content == {
                "key": "k",
                "value": mode,
            }
    store_obj = EpisodeStore(store)
    # The client closes stdin and waits for the process to exit: the bundle is written by then.
    (eid,) = [p.name for p in store.iterdir() if p.name.startswith("ep_")]
    meta = store_obj.read(eid).meta
    assert (meta.termination, meta.steps, meta.variant_id) == ("eof", 2, "toy/set-target@medium#2")


async def test_the_stdio_episode_id_is_announced_at_start(tmp_path: Path) -> None:
    import io

    from mcpgym_server._stdio import serve_stdio
    from tests.toyenv import make_toy_env

    env = make_toy_env(tmp_path / "pkg")
    lines: list[str] = []
    with anyio.fail_after(30):
        meta = await serve_stdio(
            env,
            task="set-target",
            seed=1,
            store_dir=tmp_path / "episodes",
            stdin=anyio.wrap_file(io.StringIO("")),
            stdout=anyio.wrap_file(io.StringIO()),
            announce=lines.append,
        )
    (line,) = lines
    assert f"episode {meta.episode_id} " in line and str(tmp_path / "episodes") in line
