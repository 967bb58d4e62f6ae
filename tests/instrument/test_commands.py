"""``mcpgym lock | sign | record`` and the lock check of ``mcpgym serve``, through the CLI."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mcpgym_clients import cli, evaluation
from mcpgym_clients.commands import _common, evaluate, instrument
from mcpgym_server import BundleSignatureError, Environment, EpisodeStore
from mcpgym_server.lock import lock_path, read_lock
from tests import toyenv
from tests.toyenv import secret

from .conftest import ToyFactory

runner = CliRunner()
BY = "Ada Lovelace <ada@example.org>"


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def install(monkeypatch: pytest.MonkeyPatch, env: Environment) -> Environment:
    """Make every command find ``env`` as if it were installed."""
    monkeypatch.setattr(_common, "load_environment", lambda name: env)  # serve, tasks
    monkeypatch.setattr(evaluation, "load_environment", lambda name: env)  # eval, demo
    monkeypatch.setattr(instrument, "load_environment", lambda name: env)
    return env


def test_lock_then_sign_writes_a_signed_lock(
    monkeypatch: pytest.MonkeyPatch, toy: ToyFactory
) -> None:
    env = install(monkeypatch, toy())
    result = runner.invoke(cli.app, ["lock", "toyvault"])
    assert result.exit_code == 0, result.output
    assert "wrote" in result.output and "not signed off: copy-secret" in flat(result.output)
    result = runner.invoke(cli.app, ["sign", "toyvault", "copy-secret", "--by", BY])
    assert result.exit_code == 0, result.output
    assert read_lock(env).signoff_status("copy-secret") == "valid"
    result = runner.invoke(cli.app, ["lock", "toyvault"])
    assert "unchanged" in result.output and "not signed off" not in result.output


def test_lock_reads_sign_offs_in_another_order_as_the_same_lock(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    package, sha = toyenv.install(tmp_path)
    env = install(
        monkeypatch,
        toyenv.make_env(package, sha, families=("set-target", "copy-secret"), name="toyvault"),
    )
    assert runner.invoke(cli.app, ["lock", "toyvault"]).exit_code == 0
    for family in ("set-target", "copy-secret"):  # `sign` appends: not the order lock writes
        assert runner.invoke(cli.app, ["sign", "toyvault", family, "--by", BY]).exit_code == 0
    path = lock_path(env)
    text = path.read_text()
    assert text.index("[signoffs.set-target]") < text.index("[signoffs.copy-secret]")
    result = runner.invoke(cli.app, ["lock", "toyvault"])
    assert result.exit_code == 0, result.output
    assert "unchanged" in result.output and "wrote" not in result.output, result.output
    assert path.read_text() == text


def test_signing_an_unchanged_rubric_again_never_silently_replaces_its_sign_off(
    monkeypatch: pytest.MonkeyPatch, toy: ToyFactory
) -> None:
    env = install(monkeypatch, toy())
    runner.invoke(cli.app, ["lock", "toyvault"])
    runner.invoke(cli.app, ["sign", "toyvault", "copy-secret", "--by", BY])
    first = read_lock(env).signoffs["copy-secret"]
    other = "Grace Hopper <grace@example.org>"
    refused = runner.invoke(cli.app, ["sign", "toyvault", "copy-secret", "--by", other])
    assert refused.exit_code == 1, refused.output
    assert f"is already signed off by {BY} at {first.at}" in flat(refused.output)
    assert "pass --force to replace it" in flat(refused.output)
    same = runner.invoke(cli.app, ["sign", "toyvault", "copy-secret", "--by", BY])
    assert same.exit_code == 0 and "unchanged:" in flat(same.output), same.output
    assert read_lock(env).signoffs["copy-secret"] == first
    forced = runner.invoke(cli.app, ["sign", "toyvault", "copy-secret", "--by", other, "--force"])
    assert forced.exit_code == 0, forced.output
    assert f"replacing {BY}'s of {first.at}" in flat(forced.output)
    assert read_lock(env).signoffs["copy-secret"].by == other


def test_after_a_rubric_change_lock_then_sign_signs_again_without_force(
    monkeypatch: pytest.MonkeyPatch, toy: ToyFactory
) -> None:
    install(monkeypatch, toy())
    runner.invoke(cli.app, ["lock", "toyvault"])
    runner.invoke(cli.app, ["sign", "toyvault", "copy-secret", "--by", BY])
    env = install(monkeypatch, toy(weight=4.0))
    assert runner.invoke(cli.app, ["lock", "toyvault"]).exit_code == 0
    result = runner.invoke(cli.app, ["sign", "toyvault", "copy-secret", "--by", BY])
    assert result.exit_code == 0 and "replacing" not in result.output, result.output
    assert read_lock(env).signoff_status("copy-secret") == "valid"


def test_sign_refuses_a_malformed_signer_and_an_unknown_family(
    monkeypatch: pytest.MonkeyPatch, toy: ToyFactory
) -> None:
    install(monkeypatch, toy())
    runner.invoke(cli.app, ["lock", "toyvault"])
    bad = runner.invoke(cli.app, ["sign", "toyvault", "copy-secret", "--by", "Ada"])
    assert bad.exit_code == 2 and "must be a name and an email address" in flat(bad.output)
    unknown = runner.invoke(cli.app, ["sign", "toyvault", "nope", "--by", BY])
    assert unknown.exit_code == 2
    assert "unknown task 'nope'; valid tasks: copy-secret" in flat(unknown.output)


def test_sign_refuses_while_the_lock_is_out_of_date(
    monkeypatch: pytest.MonkeyPatch, toy: ToyFactory
) -> None:
    install(monkeypatch, toy())
    runner.invoke(cli.app, ["lock", "toyvault"])
    install(monkeypatch, toy(weight=4.0))
    result = runner.invoke(cli.app, ["sign", "toyvault", "copy-secret", "--by", BY])
    assert result.exit_code == 1
    assert "rubric of family `copy-secret` changed" in flat(result.output)
    assert "run `mcpgym lock toyvault` first" in flat(result.output)


def test_serve_refuses_a_missing_or_stale_lock_naming_the_change(
    monkeypatch: pytest.MonkeyPatch, toy: ToyFactory
) -> None:
    install(monkeypatch, toy())
    missing = runner.invoke(cli.app, ["serve", "toyvault"])
    assert missing.exit_code == 1
    assert "error: environment `toyvault` has no lock file" in flat(missing.output)
    runner.invoke(cli.app, ["lock", "toyvault"])
    install(monkeypatch, toy(extra_tool=True))
    stale = runner.invoke(cli.app, ["serve", "toyvault", "--stdio", "--task", "copy-secret"])
    assert stale.exit_code == 1
    assert "no longer matches its lock file: tool `count` added" in flat(stale.output)


def test_serve_unlocked_serves_anyway_and_marks_the_bundle(
    monkeypatch: pytest.MonkeyPatch, toy: ToyFactory, tmp_path: Path
) -> None:
    install(monkeypatch, toy(extra_tool=True))  # no lock file at all
    store = tmp_path / "episodes"
    args = ["serve", "toyvault", "--unlocked", "--stdio", "--task", "copy-secret"]
    result = runner.invoke(
        cli.app, [*args, "--store", str(store)], input="", env={"MCPGYM_BUNDLE_KEY": "k1"}
    )
    assert result.exit_code == 0, result.output
    (eid,) = [p.name for p in store.iterdir() if p.name.startswith("ep_")]
    meta = EpisodeStore(store).read_meta(eid)
    assert (meta.unlocked, meta.termination) == (True, "eof")
    EpisodeStore(store).verify_signature(eid, "k1")  # signed with the key from the environment
    with pytest.raises(BundleSignatureError, match="does not verify"):
        EpisodeStore(store).verify_signature(eid, "another key")


@pytest.fixture
def locked(monkeypatch: pytest.MonkeyPatch, toy: ToyFactory) -> Environment:
    env = install(monkeypatch, toy())
    assert runner.invoke(cli.app, ["lock", "toyvault"]).exit_code == 0
    return env


def test_record_reads_commands_from_piped_stdin_and_saves_the_run(
    locked: Environment, tmp_path: Path
) -> None:
    value = secret("medium", 41)
    commands = [
        "# a comment",
        "tools",
        "schema put",
        "put {not json}",
        "frobnicate {}",
        'get {"key": "vault"}',
        f'put {{"key": "target", "value": "{value}"}}',
        "submit 'copied it'",
    ]
    args = ["record", "toyvault", "--task", "copy-secret", "--band", "medium", "--seed", "41"]
    result = runner.invoke(cli.app, [*args, "--by", BY], input="\n".join(commands) + "\n")
    assert result.exit_code == 0, result.output
    out = flat(result.output)
    url = r"http://127\.0\.0\.1:\d+/episodes/ep_[0-9a-f]{32}/mcp"
    assert re.search(r"MCP URL \(any MCP client may connect and call tools\): " + url, out)
    assert "put: Set a key." in out and '"required": [ "key", "value" ]' in out
    assert "error: arguments are not valid JSON" in out
    assert "error: unknown command or tool `frobnicate`" in out
    assert f'"value": "{value}"' in out
    assert "grade: score 1.0, passed True" in out
    path = locked_run_path(locked, "medium", 41)
    assert f"saved {path}" in out
    run = json.loads(path.read_text())
    assert [(c["tool"], c["status"]) for c in run["calls"]] == [
        ("get", "ok"),
        ("put", "ok"),
        ("submit", "ok"),
    ]
    assert (run["answer"], run["termination"], run["recorded_by"]) == ("copied it", "submitted", BY)
    assert run["lock"] == read_lock(locked).digest and run["grade"]["score"] == 1.0
    assert len(run["final_sha256"]) == 64 and run["variant_id"] == "toyvault/copy-secret@medium#41"


def locked_run_path(env: Environment, band: str, seed: int) -> Path:
    from mcpgym_clients.instrument import run_path

    return run_path(env, "copy-secret", band, seed)


def test_record_at_end_of_input_ends_the_episode_and_warns_when_it_fails(
    locked: Environment, tmp_path: Path
) -> None:
    out = tmp_path / "run.json"
    args = ["record", "toyvault", "--task", "copy-secret", "--band", "easy", "--seed", "3"]
    result = runner.invoke(cli.app, [*args, "--out", str(out)], input='get {"key": "a"}\n')
    assert result.exit_code == 0, result.output
    run = json.loads(out.read_text())
    assert run["termination"] == "ended" and run["grade"]["passed"] is False
    assert "`mcpgym validate` will refuse it" in flat(result.output)


def test_record_refuses_a_malformed_signer(locked: Environment) -> None:
    args = ["record", "toyvault", "--task", "copy-secret", "--band", "easy", "--seed", "3"]
    result = runner.invoke(cli.app, [*args, "--by", "nobody"], input="end\n")
    assert result.exit_code == 2 and "must be a name and an email address" in flat(result.output)


def test_eval_refuses_an_environment_whose_code_changed(
    monkeypatch: pytest.MonkeyPatch, toy: ToyFactory, tmp_path: Path
) -> None:
    install(monkeypatch, toy())
    runner.invoke(cli.app, ["lock", "toyvault"])
    install(monkeypatch, toy(generator_version="2"))
    monkeypatch.setattr(evaluate, "available_environments", lambda: ["toyvault"])
    store = tmp_path / "runs" / "mcpgym.db"
    result = runner.invoke(cli.app, ["eval", "toyvault", "--agent", "null", "--store", str(store)])
    assert result.exit_code == 1
    assert "generator of family `copy-secret` changed (version 1 -> 2)" in flat(result.output)
    assert not (tmp_path / "runs" / "episodes").exists()  # refused before any server started


RECORD = ["record", "toyvault", "--task", "copy-secret", "--band", "easy", "--seed", "3"]


def good_run(band: str, seed: int) -> str:
    value = secret(band, seed)
    return f'get {{"key": "vault"}}\nput {{"key": "target", "value": "{value}"}}\nsubmit\n'


def test_record_keeps_failing_runs_out_of_reference_runs_and_never_overwrites(
    locked: Environment, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    path = locked_run_path(locked, "easy", 3)
    failing = runner.invoke(cli.app, RECORD, input="")  # a 0-call run: end of input at once
    assert failing.exit_code == 1, failing.output
    aside = Path("runs") / "failed-runs" / "copy-secret" / "easy-3.json"
    assert f"not saved into {path}" in flat(failing.output)
    assert f"saved to {aside} for inspection (--allow-failing saves it anyway)" in flat(
        failing.output
    )
    assert not path.exists() and json.loads((tmp_path / aside).read_text())["calls"] == []
    good = runner.invoke(cli.app, RECORD, input=good_run("easy", 3))
    assert good.exit_code == 0, good.output
    shipped = path.read_text()
    again = runner.invoke(cli.app, RECORD, input="end\n")
    assert again.exit_code == 1
    assert f"error: {path} exists; pass --force to replace it" in flat(again.output)
    assert "MCP URL" not in again.output and path.read_text() == shipped  # refused up front
    forced = runner.invoke(cli.app, [*RECORD, "--force", "--allow-failing"], input="end\n")
    assert forced.exit_code == 0, forced.output
    assert json.loads(path.read_text())["grade"]["score"] != 1.0


def test_record_reports_a_refused_call_and_keeps_the_session(
    locked: Environment, tmp_path: Path
) -> None:
    huge = "x" * 5_000_000
    lines = f'put {{"key": "big", "value": "{huge}"}}\n' + good_run("easy", 3)
    out = tmp_path / "run.json"
    result = runner.invoke(cli.app, [*RECORD, "--out", str(out)], input=lines)
    assert result.exit_code == 0, result.output[-2000:]
    assert "error: the server refused the call to `put`" in flat(result.output)
    assert "grade: score 1.0, passed True" in flat(result.output)


CHILD = """
import sys
from pathlib import Path

from mcpgym_clients import cli
from mcpgym_clients import evaluation
from mcpgym_clients.commands import _common, evaluate, instrument
from mcpgym_server.lock import current_lock, write_lock
from tests.toyenv import install, toyvault

tmp = Path(sys.argv[1])
env = toyvault(*install(tmp))
write_lock(env, current_lock(env))
instrument.load_environment = lambda name: env
sys.argv = ["mcpgym", *sys.argv[2:]]
cli.app()
"""


def test_ctrl_c_during_record_exits_at_once_and_saves_nothing(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import threading

    out = tmp_path / "run.json"
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(tmp_path), *RECORD, "--out", str(out)],
        stdin=subprocess.PIPE,  # kept open: the prompt waits for a line that never comes
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=root,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "300"},
    )
    guard = threading.Timer(60, proc.kill)
    guard.start()
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("type `help`"):
                break
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=20)  # before the fix: blocked until a line came
    finally:
        guard.cancel()
        proc.kill()
    assert proc.returncode == 130, err
    assert "error: interrupted: nothing saved" in err and not out.exists()


def test_lock_repairs_a_hand_edited_or_broken_lock_file(
    locked: Environment, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mcpgym_server.lock import lock_path

    assert runner.invoke(cli.app, ["sign", "toyvault", "copy-secret", "--by", BY]).exit_code == 0
    path = lock_path(locked)
    text = path.read_text()
    path.write_text(text.replace('version = "0.1.0"', 'version = "9.9.9"'))  # edited by hand
    edited = runner.invoke(cli.app, ["lock", "toyvault"])
    assert edited.exit_code == 0, edited.output
    assert "its digest does not match its content" in flat(edited.output)
    assert "kept the sign-offs of `copy-secret`" in flat(edited.output)
    assert read_lock(locked).signoff_status("copy-secret") == "valid"
    path.write_text(text.replace(BY, "x"))
    bad_signer = runner.invoke(cli.app, ["lock", "toyvault"])
    assert bad_signer.exit_code == 0, bad_signer.output
    assert "sign-off of family `copy-secret` dropped: `by`:" in flat(bad_signer.output)
    assert read_lock(locked).signoff_status("copy-secret") == "missing"
    path.write_text("env = [not toml")
    broken = runner.invoke(cli.app, ["lock", "toyvault"])
    assert broken.exit_code == 0, broken.output
    assert "is not valid TOML" in flat(broken.output)
    assert "no sign-off could be read (not TOML)" in flat(broken.output)
    assert read_lock(locked).digest


def test_validate_refuses_an_unwritable_report_path_before_running(
    locked: Environment, tmp_path: Path
) -> None:
    result = runner.invoke(cli.app, ["validate", "toyvault", "--json", str(tmp_path)])
    assert result.exit_code == 2
    assert "is a directory; give a writable file" in flat(result.output)
    assert "episodes" not in result.output


@pytest.mark.parametrize(
    ("seeds", "says"),
    [("0-2", "is a range or a list"), ("0,1", "is a range or a list"), ("0", "not a count")],
)
def test_validate_seeds_is_a_count_and_a_range_is_named_as_such(seeds: str, says: str) -> None:
    # `eval --seeds 0-2` is a range; `validate --seeds` a count: the mix-up is named, not
    # read as the integer -2 ("greater than or equal to 1").
    result = runner.invoke(cli.app, ["validate", "toyvault", "--seeds", seeds, "--check"])
    assert result.exit_code == 2
    out = flat(result.output)
    assert says in out
    assert "validate --seeds is a count N (seeds 0..N-1)" in out
    assert "episodes" not in result.output


def test_lock_keeps_sign_offs_from_a_lock_file_left_with_merge_conflicts(
    locked: Environment,
) -> None:
    from mcpgym_server.lock import lock_path

    assert runner.invoke(cli.app, ["sign", "toyvault", "copy-secret", "--by", BY]).exit_code == 0
    path = lock_path(locked)
    text = path.read_text()
    start = text.index("[signoffs.copy-secret]")
    end = text.find("\n[", start + 1)
    table = text[start:] if end < 0 else text[start : end + 1]
    year = int(table.split('at = "')[1][:4])
    theirs = table.replace(BY, "Grace Hopper <grace@example.org>").replace(
        f'at = "{year}',
        f'at = "{year + 1}',  # signed a year later
    )
    conflicted = text.replace(
        table, f"<<<<<<< HEAD\n{table}=======\n{theirs}>>>>>>> grace/sign\n"
    ).replace(
        'version = "0.1.0"',
        '<<<<<<< HEAD\nversion = "0.1.0"\n=======\nversion = "0.1.0"\n>>>>>>> x',
    )
    path.write_text(conflicted)
    result = runner.invoke(cli.app, ["lock", "toyvault"])
    assert result.exit_code == 0, result.output
    out = flat(result.output)
    assert "sign-off tables were read one by one" in out
    assert "kept the sign-offs of `copy-secret`" in out
    lock = read_lock(locked)
    assert lock.signoff_status("copy-secret") == "valid"
    assert lock.signoffs["copy-secret"].by == "Grace Hopper <grace@example.org>"  # the later
