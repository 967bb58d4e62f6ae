"""Round 20 (system): SIGTERM of the environment server while agents "think" (S20-1).

A campaign of a slow scripted agent (the reference solution, each call after a pause that
stands for a model's answer) on real child servers (`serve_in_processes`); at the start of
the 3rd episode the environment server gets SIGTERM: it seals its open episodes
(`shutdown`) and the supervisor restarts it on its port. Prints each stored episode's
termination, the server's termination and whether it was scored.

Usage: uv run python adv/round20sys/p1_sigterm20.py [PAUSE_S]   (default 2.0)
"""

from __future__ import annotations

import dataclasses
import signal
import sys
import tempfile
from collections import Counter
from pathlib import Path

import anyio

from mcpgym_clients import EpisodeDriver, ReferenceAgent, RunStore, run_campaign
from mcpgym_clients.campaign import infra_backoff
from mcpgym_clients.child_servers import serve_in_processes
from mcpgym_clients.protocol import AgentResult, EpisodeContext, ToolOutcome
from mcpgym_clients.selection import VariantKey
from mcpgym_server import load_environment

PAUSE = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0


class Thinking(ReferenceAgent):
    """The reference agent, pausing before each call; SIGTERMs the server once."""

    def __init__(self, kill: object) -> None:
        super().__init__()
        self.kill, self.started = kill, 0

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        self.started += 1
        if self.started == 3:
            self.kill()  # type: ignore[operator]
        inner = ctx.call_tool

        async def slow(name: str, arguments: object) -> ToolOutcome:
            await anyio.sleep(PAUSE)  # a probe: the model's thinking time
            return await inner(name, arguments)  # type: ignore[arg-type]

        return await super().run(dataclasses.replace(ctx, call_tool=slow))


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with serve_in_processes(
            "helpdesk", Path(tmp) / "episodes", log_path=Path(tmp) / "servers.log"
        ) as servers:
            env_proc = servers.children[0].proc
            assert env_proc is not None
            agent = Thinking(lambda: env_proc.send_signal(signal.SIGTERM))
            store = RunStore(Path(tmp) / "runs.db")
            variants = [VariantKey("order-status", "easy", s) for s in range(8)]
            async with EpisodeDriver(
                servers.env_url,
                servers.grading_url,
                servers.grading_token,
                control_token=servers.control_token,
                environment=load_environment("helpdesk"),
            ) as d:
                summary = await run_campaign(
                    d,
                    agent,
                    variants,
                    store,
                    concurrency=4,
                    baseline=False,
                    show_progress=False,
                    infra_retries=2,
                    infra_backoff=servers.retry_policy(infra_backoff(0.5)),
                )
            rows = [r for run in store.runs() for r in store.episodes(run["id"])]
            print("restarts:", servers.restarts, "summary:", type(summary).__name__)
        log = (Path(tmp) / "servers.log").read_text(errors="replace").splitlines()
        print(
            "servers.log (not INFO):",
            *[ln[:200] for ln in log if " INFO " not in ln][-25:],
            sep="\n  ",
        )
        seen: Counter[tuple[str, str, bool]] = Counter()
        for r in rows:
            key = (r["termination"], str(r["episode_termination"]), bool(r["scored"]))
            seen[key] += 1
            print(
                f"  #{r['seed']} {key[0]:12} server={key[1]:10} scored={key[2]} {(r['error'] or '')[:110]}"
            )
        print("counts (termination, server termination, scored):", dict(seen))


if __name__ == "__main__":
    anyio.run(main)
