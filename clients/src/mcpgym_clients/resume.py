"""Which stored run a campaign resumes: only one whose every input is the campaign's.

A run's episodes and their grades are decided by

- the environment and its lock (code, rubrics, tools: what the grading service grades by);
- the variant set and epochs (the selection, in any spelling; not the concurrency);
- the agent, its model and settings (`Agent.settings`: vendor, sampling, base URL,
  ``--max-turns``, ``--max-tokens``, ``--time-limit``, system prompt, a harness's path and
  source digest);
- the *conditions* it was served under (`campaign_conditions`): the environment server's
  seed salt, as a keyed fingerprint (`mcpgym_server.runtime.salt_fingerprint`; the salt
  itself is never recorded), its idle TTL, log caps, MCP session cap and request rate per
  episode (`mcpgym_server._rate_limit`), which it reports to the holder of its control
  token (``GET /tasks``), and the driver's hard cap per episode (``--timeout``).

Every one is recorded with the run and compared (`RunStore.find_resumable`): a campaign
whose inputs differ in any of them starts a new run, so that one run never holds episodes
served under two salts, two caps or two agents. `not_resumed` names what differed from the
newest run of the same agent and variants that had work left, for the line
`run_campaign` prints (``--new-run`` always starts a new run).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from mcpgym_clients._run_match import selection_key
from mcpgym_clients.records import ServerInfo
from mcpgym_clients.runstore import RunStore
from mcpgym_server import Environment, MCPGymError, compute_lock, load_environment
from mcpgym_server import lock_components as _lock_components

UNREPORTED = "unreported"
"""``episode_timeout`` of an `EpisodeRunner` that does not say its hard cap."""

SETTING_NAMES = {
    "seed_salt": "seed salt (--seed-salt, compared by its fingerprint)",
    "idle_ttl": "the server's idle TTL (--idle-ttl)",
    "log_value_cap": "the server's log value cap (--log-value-cap)",
    "log_budget": "the server's log budget (--log-budget)",
    "max_sessions_per_episode": "MCP sessions per episode (--max-sessions-per-episode)",
    "max_requests_per_second": "MCP requests per episode a second (--max-requests-per-second)",
    "request_burst": "MCP requests per episode at once (--request-burst)",
    "episode_timeout": "hard cap per episode (--timeout)",
}
"""How `not_resumed` names a differing condition."""

AGENT_SETTING_FLAGS = {
    "max_turns": "--max-turns",
    "token_budget": "--max-tokens",
    "time_limit": "--time-limit",
    "temperature": "--temperature",
    "seed": "--model-seed",
    "max_tokens": "--max-output-tokens",
    "tool_choice": "--tool-choice",
    "base_url": "--base-url",
    "parse_text_tool_calls": "--parse-text-tool-calls",
    "harness": "--agent",
    "harness_digest": "the harness source",
}
"""The option behind an agent setting, where there is one (named beside the setting)."""


def campaign_conditions(info: ServerInfo, episode_timeout: float | str | None) -> dict[str, Any]:
    """What a campaign's episodes are served under besides the lock, as recorded with a run.

    Args:
        info: the environment server's `ServerInfo` (its ``episode_settings``: ``None``
            when the server reports none).
        episode_timeout: the driver's hard cap per episode in seconds (``None``: none), or
            `UNREPORTED`.

    Returns:
        ``{"server": info.episode_settings, "episode_timeout": episode_timeout}`` (JSON; no
        secret: the salt appears only as its keyed fingerprint).
    """
    server = None if info.episode_settings is None else dict(info.episode_settings)
    return {"server": server, "episode_timeout": episode_timeout}


def _same(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _changed_keys(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """The keys whose values differ, those `SETTING_NAMES` names first (in its order)."""
    order = {k: i for i, k in enumerate(SETTING_NAMES)}
    changed = [k for k in set(old) | set(new) if not _same(old.get(k), new.get(k))]
    return sorted(changed, key=lambda k: (order.get(k, len(order)), k))


def differences(
    row: Mapping[str, Any],
    *,
    lock: str,
    model: str | None,
    settings: Mapping[str, Any],
    conditions: Mapping[str, Any],
) -> list[str]:
    """What differs between a stored run (``row``, as `RunStore.runs` gives it) and a
    campaign's inputs, in words (never a secret's value); empty when nothing does."""
    diffs: list[str] = []
    if row.get("lock") != lock:
        diffs.append(f"environment lock ({str(row.get('lock'))[:12]} vs {lock[:12]})")
    if row.get("model") != model:
        diffs.append(f"model ({row.get('model')} vs {model})")
    changed = _changed_keys(row.get("settings") or {}, settings)
    if changed:
        named = [
            f"{k} ({AGENT_SETTING_FLAGS[k]})" if k in AGENT_SETTING_FLAGS else k for k in changed
        ]
        diffs.append("agent settings: " + ", ".join(named))
    stored = row.get("conditions")
    if stored is None:
        diffs.append("its seed salt and episode caps, which it did not record (an older mcpgym)")
        return diffs
    old_server, new_server = stored.get("server"), conditions.get("server")
    if old_server is None or new_server is None:
        if not _same(old_server, new_server):
            diffs.append(
                "the environment server's settings (seed salt, idle TTL, log caps), which "
                + ("that run's" if old_server is None else "this")
                + " server did not report"
            )
    else:
        diffs += [SETTING_NAMES.get(k, k) for k in _changed_keys(old_server, new_server)]
    for key in _changed_keys(
        {k: v for k, v in stored.items() if k != "server"},
        {k: v for k, v in conditions.items() if k != "server"},
    ):
        diffs.append(SETTING_NAMES.get(key, key))
    return diffs


def not_resumed(
    rows: Sequence[Mapping[str, Any]],
    *,
    lock: str,
    model: str | None,
    settings: Mapping[str, Any],
    selection: Mapping[str, Any],
    conditions: Mapping[str, Any],
) -> str | None:
    """The line saying why the newest run of the same agent and variant set that has work
    left (``rows``: `RunStore.runs_with_work_left`) is not resumed, or ``None`` when there
    is none (or it matches: then it is resumed)."""
    key = selection_key(selection)
    for row in rows:
        if selection_key(row.get("selection") or {}) != key:
            continue
        diffs = differences(row, lock=lock, model=model, settings=settings, conditions=conditions)
        if not diffs:
            return None
        argv = " ".join(row.get("argv") or []) or "(not recorded)"
        return (
            f"starting a new run: run {row['id']} (same agent and variants, unfinished or "
            f"with unscored episodes) differs in {'; '.join(diffs)}; to resume it, run it "
            f"with the settings it was started with: {argv}"
        )
    return None


def finished_before(row: Mapping[str, Any]) -> str:
    """The line a campaign prints when it starts a new run although a finished run of the
    same inputs (``row``: `RunStore.find_finished`; the variant set perhaps spelled
    otherwise) holds every episode it plans: nothing is resumed, every episode is played
    again, and the user may have meant to read the old run instead."""
    argv = " ".join(row.get("argv") or []) or "(not recorded)"
    when = str(row.get("finished_at") or "?")[:19].replace("T", " ")
    return (
        f"starting a new run: run {row['id']} (same agent, variants and settings) finished at "
        f"{when} UTC with every episode scored, so nothing is resumed and "
        f"every episode is played again; its results: mcpgym show {row['id']} (it was run "
        f"as: {argv})"
    )


def run_to_resume(
    store: RunStore, *, env: str, agent: str, **inputs: Any
) -> tuple[str | None, str | None]:
    """The run a campaign resumes (``(run_id, None)``), else ``(None, line)`` with the line it
    prints about the nearest run it does not resume: one with work left whose inputs differ
    (`not_resumed`), or an identical finished run whose episodes are played again
    (`finished_before`); ``(None, None)`` when there is neither.

    ``inputs``: ``lock``, ``model``, ``settings``, ``selection``, ``conditions``, as
    `RunStore.find_resumable` takes them.
    """
    found = store.find_resumable(env=env, agent=agent, **inputs)
    if found is not None:
        return found, None
    why_not = not_resumed(store.runs_with_work_left(env=env, agent=agent), **inputs)
    if why_not is None:
        done = store.find_finished(env=env, agent=agent, **inputs)
        why_not = None if done is None else finished_before(done)
    return None, why_not


def known_components(info: ServerInfo, environment: Environment | None) -> dict[str, Any] | None:
    """The lock components of the environment ``info`` names (``environment``, else the one
    installed under its name), when it has the served lock; else ``None`` (recorded with a
    run: `RunStore.create_run`)."""
    try:
        env = environment if environment is not None else load_environment(info.env)
        if compute_lock(env) == info.lock:
            return _lock_components(env)
    except MCPGymError:  # not installed here: the run just records no components
        pass
    return None
