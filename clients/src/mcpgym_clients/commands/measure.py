"""``mcpgym runs``, ``show``, ``compare`` and ``targets``: measuring stored runs.

Commands::

    mcpgym runs [--json PATH] [--store DB]
    mcpgym show RUN [--episodes] [--json PATH] [--store DB]
    mcpgym compare RUN_A RUN_B [--json PATH] [--force] [--store DB]
    mcpgym targets RUN [--out FILE.jsonl] [--json PATH] [--fresh N] [--store DB]

``RUN`` is a run id, a unique prefix of one, or ``latest`` (the newest run that is not
a baseline). Errors are one ``error: ...`` line with exit status 1.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from mcpgym_clients.commands._common import reported, say
from mcpgym_clients.commands._options import DEFAULT_STORE
from mcpgym_clients.errors import ConfigurationError
from mcpgym_clients.measure.render import (
    ceiling_table,
    comparison_table,
    flips_table,
    metrics_table,
    print_lines,
    print_table,
    targets_table,
    usage_comparison_table,
    usage_table,
)
from mcpgym_clients.measure.usage import format_cost, format_count, usage_lines
from mcpgym_clients.summary import flag_notes

if TYPE_CHECKING:  # the run store (sqlite_utils, numpy) is imported by the commands
    from mcpgym_clients.runstore import RunStore

StoreOption = Annotated[Path, typer.Option(help="Run store (SQLite).")]
JsonOption = Annotated[Path | None, typer.Option("--json", help="Also write the result as JSON.")]
ResamplesOption = Annotated[int, typer.Option(help="Bootstrap resamples.", min=100, max=100_000)]
SeedOption = Annotated[int, typer.Option(help="Bootstrap seed.", min=0)]


def open_existing(path: Path) -> RunStore:
    """Open a run store that must already exist, read-only (nothing is written to it).

    Raises:
        ConfigurationError: no file there, a directory, or a file that is not a run
            store (not SQLite, or without the ``runs`` and ``episodes`` tables).
    """
    if path.is_dir():
        raise ConfigurationError(f"--store {path} is a directory; give the database file")
    if not path.exists():
        raise ConfigurationError(f"no run store at {path}; run `mcpgym eval` first or pass --store")
    from mcpgym_clients.runstore import RunStore

    return RunStore.open_read_only(path)


def _write_json(path: Path, data: Any) -> None:
    try:
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        raise ConfigurationError(f"--json {path}: cannot write: {exc.strerror}") from None


def runs(json_path: JsonOption = None, store: StoreOption = DEFAULT_STORE) -> None:
    """List the runs in the store with their headline figures.

    ``episodes`` counts every stored episode (infrastructure errors included), ``scored``
    those counted in mean and pass (as ``mcpgym show`` does). ``--json`` writes
    ``{"store", "runs": [{"run", "short_id", "state", "episodes", "scored", "mean_score",
    "pass_rate", "usage": {"episodes", "reported", "total_tokens", "cost_usd"}}]}`` in the
    table's order (``run`` as in ``mcpgym show --json``, with ``baseline_of``). A store
    without a run (an ``eval`` that failed before its first run) says so instead of a table.
    """
    from mcpgym_clients.runstore import short_id

    console = Console()
    with reported(), open_existing(store) as s:
        rows = s.runs()
        if not rows:
            if json_path is not None:
                _write_json(json_path, _runs_json(store, [], {}))
            say(console, f"the run store {store} holds no run yet: `mcpgym eval` makes one")
            return
        envs = {f"{r['env']} {r['env_version']}, lock {str(r['lock'])[:8]}" for r in rows}
        one_env = len(envs) == 1
        title = f"runs in {store}, newest first" + (f" ({next(iter(envs))})" if one_env else "")
        table = Table(title=title, box=box.SIMPLE_HEAD)
        table.add_column("run", no_wrap=True)
        table.add_column("short", no_wrap=True)  # what `show`, `compare`... accept too
        table.add_column("agent", overflow="fold")
        if not one_env:
            table.add_column("env, lock", overflow="fold")
        # episodes: every stored episode, infrastructure errors included; scored: those
        # counted in mean and pass (what `mcpgym show` calls "scored")
        for name in ("episodes", "scored", "mean", "pass", "tokens", "cost"):
            table.add_column(name, justify="right", no_wrap=True)
        table.add_column("state", no_wrap=True)
        baselines: dict[str, list[dict[str, Any]]] = {}
        for run in rows:
            if run["baseline_of"]:
                baselines.setdefault(run["baseline_of"], []).append(run)
        ordered = []
        for run in reversed(rows):
            if not run["baseline_of"] or run["baseline_of"] not in {r["id"] for r in rows}:
                ordered += [run, *baselines.get(run["id"], [])]
        heads = s.headlines()
        if json_path is not None:
            _write_json(json_path, _runs_json(store, ordered, heads))
        for run in ordered:
            head = heads.get(run["id"], {})
            mean, rate = head.get("mean_score"), head.get("pass_rate")
            agent = run["agent"] + (f" ({run['model']})" if run["model"] else "")
            env = [] if one_env else [f"{run['env']} {run['env_version']} {str(run['lock'])[:8]}"]
            table.add_row(
                run["id"],
                short_id(run["id"]),
                f"  {agent} baseline" if run["baseline_of"] else agent,
                *env,
                str(head.get("episodes", 0)),
                str(head.get("scored") or 0),
                "-" if mean is None else f"{mean:.3f}",
                "-" if rate is None else f"{rate:.0%}",
                format_count(head.get("total_tokens")),
                format_cost(head.get("cost_usd")),
                "done" if run["finished_at"] else "open",
                end_section=not run["baseline_of"]
                and not baselines.get(run["id"])
                or bool(run["baseline_of"]),
            )
    print_table(console, table)
    total = {
        # the slots a stopped campaign never played made no model request to report
        "episodes": sum(h.get("played", 0) for h in heads.values()),
        "reported": sum(h.get("usage_reported", 0) for h in heads.values()),
    }
    # Runs of agents without a model (reference, null, random) have no usage to report.
    if rows and (total["reported"] or any(run["model"] for run in rows)):
        for line in usage_lines({"": total}):
            say(console, line)


def _runs_json(
    store: Path, ordered: list[dict[str, Any]], heads: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    from mcpgym_clients.measure.metrics import RUN_FIELDS
    from mcpgym_clients.runstore import short_id

    out = []
    for run in ordered:
        head = heads.get(run["id"], {})
        episodes = int(head.get("episodes", 0))
        out.append(
            {
                "run": {k: run.get(k) for k in (*RUN_FIELDS, "baseline_of")},
                "short_id": short_id(run["id"]),
                "state": "done" if run["finished_at"] else "open",
                "episodes": episodes,
                "scored": int(head.get("scored") or 0),
                "mean_score": head.get("mean_score"),
                "pass_rate": head.get("pass_rate"),
                "usage": {
                    "episodes": int(head.get("played") or 0),
                    "reported": int(head.get("usage_reported") or 0),
                    "total_tokens": head.get("total_tokens"),
                    "cost_usd": head.get("cost_usd"),
                },
            }
        )
    return {"store": str(store), "runs": out}


def show(
    run: Annotated[str, typer.Argument(help="Run id, unique prefix, or `latest`.")],
    json_path: JsonOption = None,
    store: StoreOption = DEFAULT_STORE,
    resamples: ResamplesOption = 2000,
    seed: SeedOption = 0,
    episodes: Annotated[
        bool,
        typer.Option(
            "--episodes", help="Also list every episode: outcome, time, turns, tool calls."
        ),
    ] = False,
) -> None:
    """Metrics of a run: mean score, pass rate, pass@k, pass^k with 95% intervals."""
    from mcpgym_clients.measure.episodes import episode_rows, episodes_table
    from mcpgym_clients.measure.metrics import run_metrics

    console = Console()
    with reported(), open_existing(store) as s:
        run_id = s.resolve(run)
        m = run_metrics(s, run_id, resamples=resamples, seed=seed)
        stored, not_run = s.episode_count(run_id), s.not_run_count(run_id)
        listing = episode_rows(s.episodes(run_id)) if episodes else None
        if listing is not None:
            m["episodes"] = listing
        if json_path is not None:
            _write_json(json_path, m)
    if listing is not None:
        print_table(console, episodes_table(listing, title=f"episodes of run {run_id}"))
    print_table(console, metrics_table(m))
    # An agent without a model (reference, null, random) has no usage: no table of dashes.
    if m["usage"]["overall"]["episodes"] and (
        m["run"]["model"] or m["usage"]["overall"]["reported"]
    ):
        print_table(console, usage_table(m["usage"]))
        for line in usage_lines({"": m["usage"]["overall"]}):
            say(console, line)
    flagged = m.get("flagged") or {}
    if any(flagged.values()):
        say(
            console,
            "flagged: "
            + ", ".join(f"{k} {v}" for k, v in flagged.items() if v)
            + flag_notes(flagged),
        )
    ex = m["excluded"]
    if any(ex.values()):
        say(
            console,
            "excluded from the figures: "
            + ", ".join(f"{k} {v}" for k, v in ex.items() if v)
            + " (not scored as failures)",
        )
    if not m["run"].get("finished_at"):
        say(console, unfinished_note(m["run"], stored, not_run))


def unfinished_note(
    run: dict[str, Any], stored: int, not_run: int, what: str = "these figures cover"
) -> str:
    """The line `show` (and `export`: ``what`` "this export holds") prints under an
    unfinished run: how many of its planned episodes hold a row, how many of those are the
    slots a stopped campaign never played."""
    selection = run.get("selection") or {}
    variants, epochs = selection.get("variants"), selection.get("epochs")
    planned = len(variants) * int(epochs) if isinstance(variants, list) and epochs else None
    if planned is None:
        said = [f"{stored:,} episodes stored"]
    elif stored >= planned:
        said = [f"each of its {planned:,} planned episodes holds a row"]
    else:
        said = [f"{stored:,} of {planned:,} planned episodes stored"]
    if not_run:
        said.append(f"{not_run:,} of them unscored as not run (the campaign stopped first)")
    return (
        f"note: run {run['id']} is unfinished ({'; '.join(said)}): {what} only "
        "what ran; run its `mcpgym eval` command again to resume it"
    )


def compare(
    run_a: Annotated[
        str, typer.Argument(help="Run A, the baseline (the old release): id, prefix or `latest`.")
    ],
    run_b: Annotated[str, typer.Argument(help="Run B, the new run: deltas are B − A.")],
    json_path: JsonOption = None,
    force: Annotated[
        bool, typer.Option("--force", help="Compare runs on different locks anyway.")
    ] = False,
    store: StoreOption = DEFAULT_STORE,
    resamples: ResamplesOption = 2000,
    seed: SeedOption = 0,
) -> None:
    """Compare run B against run A, paired by variant and epoch.

    Mean score delta with a paired bootstrap interval, pass flips with McNemar's exact
    test, overall and per band and family, and the newly solved and regressed variants
    with the checks that changed. Runs on different locks are refused unless --force.
    """
    from mcpgym_clients.measure.compare import compare_runs

    console = Console()
    with reported(), open_existing(store) as s:
        c = compare_runs(
            s, s.resolve(run_a), s.resolve(run_b), force=force, resamples=resamples, seed=seed
        )
        if json_path is not None:
            _write_json(json_path, c)
    prefix = ""
    items: list[Any] = []
    if c["forced"]:
        prefix = "FORCED (different locks) | "
        items.append("compared with --force although the locks differ:")
        items += [f"  {d}" for d in c["lock_differences"]]
    items.append(comparison_table(c))
    items.append(usage_comparison_table(c))
    items += usage_lines(
        {f"A ({c['label_a']})": c["usage"]["a"], f"B ({c['label_b']})": c["usage"]["b"]}
    )
    u = c["unpaired"]
    if any(u.values()):
        items.append(
            f"unpaired episodes: {u['only_a']} only in A, {u['only_b']} only in B, "
            f"{u['excluded']} pairs left out (infra, grade or model error)"
        )
    if c["newly_solved"]:
        items.append(
            flips_table(
                f"newly solved by B = {c['label_b']} ({len(c['newly_solved'])}): "
                f"failed by A = {c['label_a']}",
                c["newly_solved"],
            )
        )
    if c["regressed"]:
        items.append(
            flips_table(
                f"regressed in B = {c['label_b']} ({len(c['regressed'])}): "
                f"passed by A = {c['label_a']}",
                c["regressed"],
            )
        )
    if not c["newly_solved"] and not c["regressed"]:
        items.append("no pass flips")
    print_lines(console, items, prefix=prefix)


def targets(
    run: Annotated[str, typer.Argument(help="Run id, unique prefix, or `latest`.")],
    out: Annotated[
        Path | None, typer.Option(help="Write the failed episodes as JSON lines here.")
    ] = None,
    json_path: JsonOption = None,
    fresh: Annotated[
        int, typer.Option(help="Fresh seeds per band for families at the ceiling.", min=0, max=100)
    ] = 3,
    store: StoreOption = DEFAULT_STORE,
) -> None:
    """The run's failures as training targets, and fresh variants where it hit the ceiling.

    Failed episodes are grouped by the checks they failed (variant, band, instruction,
    expected vs. found, transcript reference). Where a family passes >= 90% of its
    hardest band, new seeds of that band and the next one up (if its generator supports
    it) are listed, each validated by replaying its reference solution.
    """
    from mcpgym_clients.measure.targets import ceiling_variants, failure_targets, group_targets
    from mcpgym_server import MCPGymError, load_environment

    console = Console()
    with reported(), open_existing(store) as s:
        run_id = s.resolve(run)
        env_name = s.run(run_id)["env"]
        try:
            env = load_environment(env_name)
        except MCPGymError as exc:  # the failures need no generator; fresh variants do
            env, missing = None, str(exc)
        items = failure_targets(s, run_id, environment=env)
        ceiling = [] if env is None else ceiling_variants(s, run_id, env, fresh=fresh)
        if out is not None:
            try:
                with out.open("w", encoding="utf-8") as fh:
                    for item in items:
                        fh.write(json.dumps(item) + "\n")
            except OSError as exc:
                raise ConfigurationError(f"--out {out}: cannot write: {exc.strerror}") from None
        groups = group_targets(items)
        if json_path is not None:
            _write_json(json_path, {"run": run_id, "groups": groups, "ceiling": ceiling})
    if groups:
        print_table(console, targets_table(groups))
    say(console, f"{len(items)} failed episodes in {len(groups)} groups of failed checks")
    if out is not None:
        say(console, f"targets written to {out} (one JSON line per failed episode)")
    if env is None:
        say(console, f"no fresh variants: the environment is not installed here ({missing})")
        return
    print_table(console, ceiling_table(ceiling))
    # A note several families share (the hardest band) is said once.
    for note in dict.fromkeys(note for f in ceiling for note in f["notes"]):
        say(console, f"note: {note}")
    for f in ceiling:
        bad = [v["variant_id"] for v in f["fresh"] if not v["validated"]]
        if bad:
            say(console, f"warning: the reference solution fails on {', '.join(bad)}")


def register(app: typer.Typer) -> None:
    """Add ``runs``, ``show``, ``compare`` and ``targets`` to the ``mcpgym`` app."""
    app.command()(runs)
    app.command()(show)
    app.command()(compare)
    app.command()(targets)
