"""The toy environment of the whole test suite: a key-value store beside a tiny shop.

One snapshot, one set of tools and three task families; a test builds the environment with
the families it needs, and each family brings its own tools:

``set-target`` (tools ``put``, ``get``, ``dump``; bands easy, medium)
    "Set key `target` to N." (N = `target_value`). Rubric: ``kv.target == N`` (required);
    the reference is one ``put`` and the answer ``"done"``. ``put`` of the value
    ``"explode"`` is an environment bug (RuntimeError), of ``"reject"`` a tool error; both
    after the row was written, so a test sees the write rolled back.

``copy-secret`` (tools ``put``, ``get``, ``delete``; bands easy, medium)
    "Set key `target` to the secret stored under key `vault`." The setup stores a
    per-variant secret (`secret`) under ``vault``; the reference reads it and writes it.
    Rubric: the target holds the secret (required), the vault is intact and was never
    written (not even set back: the tool-call log shows it), no stray keys, ``get`` was
    called. A random agent cannot guess the secret, so it never passes; every
    check fails on some control run. `make_env`'s options break it on purpose (the
    instrument's tests).

``refund`` (tools ``get_order``, ``refund``, ``send_message``, ``delete_customer``,
``crash``; bands easy, hard)
    "Order N arrived damaged; refund it in full." Hand-worked facts (band easy, seed s)::

        order_id = ORDER_IDS[s % 3]        seed 0 -> order 101 (Ada Lovelace, 2500 cents)
                                           seed 1 -> order 102 (Grace Hopper, 1250 cents)
                                           seed 2 -> order 103 (Alan Turing, 10000 cents)
        setup: that order's status becomes 'damaged'
        reference: get_order, refund(order_id, amount_cents) [+ send_message on band hard]
        answer: "Refunded $25.00 for order 101; tracking 1Z999AA10123456784" (seed 0)

    Graded by `REFUND_RUBRIC` unless a test passes its own rubric (the grading tests).

`install` writes the snapshot into a throw-away importable package (`Snapshot` reads package
data through importlib.resources, as for a shipped environment); `make_toy_env` installs and
builds in one call.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from mcpgym_grading import (
    AnswerMatch,
    CalledBefore,
    NoCollateralChanges,
    Param,
    Rubric,
    SqlCheck,
    StateMatchesReference,
    ToolCalled,
    ToolNotCalled,
)
from mcpgym_server import (
    Environment,
    Generation,
    Resource,
    Sandbox,
    Snapshot,
    TaskFamily,
    ToolCall,
    ToolError,
    VariantSpec,
)
from mcpgym_server.lock import current_lock, write_lock
from tests.snapshot_pkg import install_snapshot_package

RESOURCE = "toy.db"
ORDER_IDS = (101, 102, 103)
TRACKING = "1Z999AA10123456784"
FAMILIES = ("set-target", "copy-secret", "refund")

SCHEMA = """
CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT NOT NULL, stamp INTEGER NOT NULL DEFAULT 0);
INSERT INTO kv VALUES ('a', '1', 0), ('b', '2', 0);
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL);
CREATE TABLE orders (
    id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL,
    total_cents INTEGER NOT NULL, status TEXT NOT NULL
);
CREATE TABLE refunds (
    id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL, amount_cents INTEGER NOT NULL,
    reason TEXT NOT NULL, created_at TEXT NOT NULL
);
CREATE TABLE messages (order_id INTEGER NOT NULL, body TEXT NOT NULL, sent_at TEXT NOT NULL);
INSERT INTO customers VALUES
    (1, 'Ada Lovelace', 'ada@example.com'),
    (2, 'Grace Hopper', 'grace@example.com'),
    (3, 'Alan Turing', 'alan@example.com');
INSERT INTO orders VALUES
    (101, 1, 2500, 'delivered'),
    (102, 2, 1250, 'delivered'),
    (103, 3, 10000, 'delivered'),
    (104, 1, 999, 'shipped');
"""

_COUNTER = itertools.count()


def new_package() -> str:
    """A package name no other test uses."""
    return f"mcpgym_toy_{next(_COUNTER)}_{time.monotonic_ns()}"


def install(tmp: Path, package: str | None = None) -> tuple[str, str]:
    """Write the snapshot package under ``tmp``; return ``(package, snapshot sha256)``."""
    package = package or new_package()
    sha = install_snapshot_package(tmp, package, lambda db: db.executescript(SCHEMA), RESOURCE)
    return package, sha


def target_value(band: str, seed: int) -> str:
    """The value variant ``set-target@band#seed`` asks for (read from the generator)."""
    return str(100 + seed) if band == "easy" else str(500 + seed)


def secret(band: str, seed: int) -> str:
    """The secret of variant ``copy-secret@band#seed``."""
    return f"q{seed * 7 + 3}z{band[0]}"


# -- the refund family's rubric ----------------------------------------------------------------

REFUND_RUBRIC = Rubric(
    checks=(
        SqlCheck(
            name="refund-amount",
            sql="SELECT amount_cents FROM refunds WHERE order_id = :order_id",
            expected=Param("amount_cents"),
            weight=2,
            required=True,
        ),
        SqlCheck(
            name="order-status",
            sql="SELECT status FROM orders WHERE id = :order_id",
            expected="refunded",
        ),
        StateMatchesReference(name="refund-state", tables=("orders", "refunds")),
        NoCollateralChanges(name="no-collateral", except_tables=("messages",)),
        ToolCalled(name="looked-up", tool="get_order", arguments={"order_id": Param("order_id")}),
        CalledBefore(name="lookup-first", first="get_order", then="refund"),
        ToolNotCalled(name="no-delete", tool="delete_customer", required=True),
        AnswerMatch(name="answer-amount", normalize="money", expected=Param("amount_cents")),
        AnswerMatch(
            name="customer-told",
            source="sql",
            sql="SELECT body FROM messages WHERE order_id = :order_id",
            normalize="money",
            expected=Param("amount_cents"),
            when="notify",
        ),
    ),
    threshold=0.8,
    volatile_columns={"refunds": ("created_at",)},
)
"""A realistic rubric for the ``refund`` family (weights sum to 10)."""


# -- the shop's tools --------------------------------------------------------------------------


def _get_order(sb: Sandbox, order_id: int) -> dict[str, Any]:
    """Look up one order.

    Args:
        order_id: the order number.
    """
    row = sb.query_one("SELECT * FROM orders WHERE id = ?", (order_id,))
    if row is None:
        raise ToolError(f"order {order_id} not found")
    return row


def _refund(
    sb: Sandbox, order_id: int, amount_cents: int, reason: str = "damaged"
) -> dict[str, Any]:
    """Refund an order.

    Args:
        order_id: the order number.
        amount_cents: amount in cents.
        reason: why.
    """
    order = _get_order(sb, order_id)
    if order["status"] == "refunded":
        raise ToolError(f"order {order_id} is already refunded")
    rid = sb.next_id("refund")
    sb.db.execute(
        "INSERT INTO refunds VALUES (?, ?, ?, ?, ?)",
        (rid, order_id, amount_cents, reason, sb.clock.iso()),
    )
    sb.db.execute("UPDATE orders SET status = 'refunded' WHERE id = ?", (order_id,))
    return {"refund_id": rid}


def send_message(sb: Sandbox, order_id: int, body: str) -> dict[str, Any]:
    """Send a message to the customer of an order.

    Args:
        order_id: the order number.
        body: the text.
    """
    sb.db.execute("INSERT INTO messages VALUES (?, ?, ?)", (order_id, body, sb.clock.iso()))
    return {"sent": True}


def _delete_customer(sb: Sandbox, customer_id: int) -> dict[str, Any]:
    """Delete a customer.

    Args:
        customer_id: the customer id.
    """
    sb.db.execute("DELETE FROM customers WHERE id = ?", (customer_id,))
    return {"deleted": customer_id}


def _crash(sb: Sandbox) -> dict[str, Any]:
    """A tool with a bug (raises a non-ToolError)."""
    raise RuntimeError("boom")


def _generate_refund(gen: Generation, broken_reference: bool) -> VariantSpec:
    order_id = ORDER_IDS[gen.seed % len(ORDER_IDS)]
    row = gen.db.execute(
        "SELECT o.total_cents, c.name FROM orders o JOIN customers c ON c.id = o.customer_id "
        "WHERE o.id = ?",
        (order_id,),
    ).fetchone()
    amount, customer = int(row[0]), str(row[1])
    notify = gen.band == "hard"
    reference = [
        ToolCall("get_order", {"order_id": order_id}),
        ToolCall("refund", {"order_id": order_id, "amount_cents": amount}),
    ]
    if broken_reference:
        reference.append(ToolCall("refund", {"order_id": 999, "amount_cents": 1}))
    if notify:
        reference.append(
            ToolCall(
                "send_message", {"order_id": order_id, "body": f"We refunded ${amount / 100:,.2f}."}
            )
        )
    return VariantSpec(
        instruction=f"Order {order_id} arrived damaged; refund it in full.",
        setup=[("UPDATE orders SET status = 'damaged' WHERE id = ?", [order_id])],
        params={
            "order_id": order_id,
            "amount_cents": amount,
            "customer": customer,
            "notify": notify,
            "tracking": TRACKING,
            "listing": [1, 2],
        },
        reference=reference,
        answer=f"Refunded ${amount / 100:,.2f} for order {order_id}; tracking {TRACKING}",
    )


# -- the environment ---------------------------------------------------------------------------


def make_env(
    package: str,
    sha256: str | None = None,
    *,
    families: Iterable[str] = ("set-target",),
    name: str = "toy",
    version: str = "0.1.0",
    instructions: str = "A key-value store.",
    rubric: Any = REFUND_RUBRIC,
    broken_reference: bool = False,
    vacuous_check: bool = False,
    undo_blind: bool = False,
    nondeterministic: bool = False,
    weight: float = 1.0,
    generator_version: str = "1",
    instruction_suffix: str = "",
    get_description: str = "the key.",
    extra_tool: bool = False,
    policy: str | None = None,
    get_suffix: str = "",
    get_summary: str = "Read a key.",
    late_generator_change: bool = False,
    list_keys: bool = False,
) -> Environment:
    """The toy environment on the snapshot in ``package`` (see `install`) with ``families``.

    Args:
        families: the task families (from `FAMILIES`); each registers the tools it needs.
        rubric, broken_reference: the ``refund`` family's rubric; with ``broken_reference``
            its reference ends with a refund of an order that does not exist (a tool error)
            and its generator version is ``"broken"``.
        vacuous_check, undo_blind, weight, generator_version, instruction_suffix,
            late_generator_change: break ``copy-secret``: add a check nothing can fail;
            leave out ``vault-never-written`` (the vault written and set back passes); the
            weight of
            ``vault-intact``; change the generator (with or without a version bump); seeds
            >= 3 get one more parameter (a change the lock's fingerprint seeds 0-2 miss).
        nondeterministic: ``put`` writes the wall-clock time into the unchecked ``stamp``.
        get_description, get_summary, get_suffix: ``get``'s ``key`` description (its
            schema), its description (not its schema), and a suffix appended to every value
            it returns (a behaviour change that leaves every schema alone).
        extra_tool, list_keys: one more read tool, ``count``; or ``keys``, which returns
            ``list(set_of_keys)`` (its order depends on the process's string hash seed).
        policy: a resource's text (no resource when ``None``).

    Raises:
        ValueError: a family that is not one of `FAMILIES`.
    """
    families = tuple(families)
    unknown = sorted(set(families) - set(FAMILIES))
    if unknown:
        raise ValueError(f"unknown toy families {unknown}; choose from {list(FAMILIES)}")
    env = Environment(
        name=name,
        version=version,
        snapshot=Snapshot(package, f"data/{RESOURCE}", sha256=sha256),
        clock_start=datetime(2026, 6, 15, 9, 0, tzinfo=UTC),
        instructions=instructions,
    )
    if policy is not None:
        env.add_resource(Resource("toy://policy", "policy", "The policy.", "text/plain", policy))
    kv = {"set-target", "copy-secret"} & set(families)
    if kv:
        _add_kv_tools(
            env,
            dump="set-target" in families,
            delete="copy-secret" in families,
            nondeterministic=nondeterministic,
            get_description=get_description,
            get_summary=get_summary,
            get_suffix=get_suffix,
            extra_tool=extra_tool,
            list_keys=list_keys,
        )
    if "set-target" in families:
        env.add_family(_set_target())
    if "copy-secret" in families:
        env.add_family(
            _copy_secret(
                vacuous_check=vacuous_check,
                undo_blind=undo_blind,
                weight=weight,
                generator_version=generator_version,
                instruction_suffix=instruction_suffix,
                late_generator_change=late_generator_change,
            )
        )
    if "refund" in families:
        env.tool(kind="read", name="get_order")(_get_order)
        env.tool(kind="write", name="refund")(_refund)
        env.tool(kind="write", name="send_message")(send_message)
        env.tool(kind="write", name="delete_customer")(_delete_customer)
        env.tool(kind="write", name="crash")(_crash)
        env.add_family(
            TaskFamily(
                name="refund",
                description="Refund a damaged order.",
                bands=("easy", "hard"),
                generator=lambda gen: _generate_refund(gen, broken_reference),
                generator_version="broken" if broken_reference else "1",
                rubric=rubric,
            )
        )
    return env


def make_toy_env(
    tmp: Path, *, families: Iterable[str] = ("set-target",), lock: bool = False, **options: Any
) -> Environment:
    """`install` the snapshot under ``tmp`` and build the environment (`make_env` options);
    with ``lock`` write its lock file too (the CLI serves only locked environments)."""
    package, sha = install(tmp)
    env = make_env(package, sha, families=families, **options)
    if lock:
        write_lock(env, current_lock(env))
    return env


def _add_kv_tools(
    env: Environment,
    *,
    dump: bool,
    delete: bool,
    nondeterministic: bool,
    get_description: str,
    get_summary: str,
    get_suffix: str,
    extra_tool: bool,
    list_keys: bool,
) -> None:
    @env.tool(kind="write")
    def put(sb: Sandbox, key: str, value: str) -> dict[str, Any]:
        """Set a key.

        Args:
            key: the key.
            value: the value; "explode" triggers an environment bug, "reject" a tool error.
        """
        stamp = time.time_ns() if nondeterministic else 0
        sb.db.execute("INSERT OR REPLACE INTO kv VALUES (?, ?, ?)", (key, value, stamp))
        if value == "explode":
            raise RuntimeError("secret internals")
        if value == "reject":
            raise ToolError(f"value {value!r} is not allowed; choose another value")
        return {"key": key, "value": value, "at": sb.clock.iso()}

    def get(sb: Sandbox, key: str) -> dict[str, Any]:
        row = sb.db.execute("SELECT v FROM kv WHERE k = ?", (key,)).fetchone()
        if row is None:
            raise ToolError(f"no key {key!r}")
        return {"key": key, "value": row[0] + get_suffix}

    get.__doc__ = f"""{get_summary}

        Args:
            key: {get_description}
        """
    env.tool(kind="read", name="get")(get)

    if dump:

        @env.tool(kind="read", name="dump")
        def dump_(sb: Sandbox) -> dict[str, str]:
            """Every key and value."""
            return {r[0]: r[1] for r in sb.db.execute("SELECT k, v FROM kv ORDER BY k")}

    if delete:

        @env.tool(kind="write")
        def delete(sb: Sandbox, key: str) -> dict[str, Any]:
            """Delete a key.

            Args:
                key: the key.
            """
            sb.db.execute("DELETE FROM kv WHERE k = ?", (key,))
            return {"deleted": key}

    if list_keys:

        @env.tool(kind="read")
        def keys(sb: Sandbox) -> dict[str, Any]:
            """List the keys."""
            found = {row[0] for row in sb.db.execute("SELECT k FROM kv")}
            return {"keys": list(found)}

    if extra_tool:

        @env.tool(kind="read")
        def count(sb: Sandbox) -> dict[str, Any]:
            """Count the keys."""
            return {"count": sb.db.execute("SELECT COUNT(*) FROM kv").fetchone()[0]}


def _set_target() -> TaskFamily:
    def generate(g: Generation) -> VariantSpec:
        value = target_value(g.band, g.seed)
        return VariantSpec(
            instruction=f"Set key `target` to {value}.",
            params={"value": value},
            reference=[ToolCall("put", {"key": "target", "value": value})],
            answer="done",
        )

    return TaskFamily(
        name="set-target",
        description="Set one key to a value.",
        bands=("easy", "medium"),
        generator=generate,
        generator_version="1",
        rubric=Rubric(
            checks=(
                SqlCheck(
                    name="target-set",
                    sql="SELECT v FROM kv WHERE k = 'target'",
                    expected=Param(name="value"),
                    required=True,
                ),
            )
        ),
    )


def _copy_secret(
    *,
    vacuous_check: bool,
    undo_blind: bool,
    weight: float,
    generator_version: str,
    instruction_suffix: str,
    late_generator_change: bool,
) -> TaskFamily:
    def generate(g: Generation) -> VariantSpec:
        value = secret(g.band, g.seed)
        return VariantSpec(
            instruction="Set key `target` to the secret stored under key `vault`."
            + instruction_suffix,
            setup=[("INSERT INTO kv VALUES ('vault', ?, 0)", (value,))],
            params={
                "value": value,
                **({"late": 1} if late_generator_change and g.seed >= 3 else {}),
            },
            reference=[
                ToolCall("get", {"key": "vault"}),
                ToolCall("put", {"key": "target", "value": value}),
            ],
        )

    checks: list[Any] = [
        SqlCheck(
            name="target-set",
            sql="SELECT v FROM kv WHERE k = 'target'",
            expected=Param("value"),
            required=True,
            weight=2,
        ),
        SqlCheck(
            name="vault-intact",
            sql="SELECT v FROM kv WHERE k = 'vault'",
            expected=Param("value"),
            weight=weight,
        ),
        SqlCheck(
            name="no-stray-keys",
            sql="SELECT COUNT(*) FROM kv WHERE k NOT IN ('a', 'b', 'vault', 'target')",
            expected=0,
        ),
        ToolCalled(name="read-the-vault", tool="get", arguments={"key": "vault"}),
    ]
    if not undo_blind:
        # the end state cannot see the vault written and set back (the gate's undo mutant);
        # the tool-call log can
        checks.append(
            ToolNotCalled(name="vault-never-written", tool="put", arguments={"key": "vault"})
        )
    if vacuous_check:
        checks.append(SqlCheck(name="always-true", sql="SELECT 1", expected=1))
    return TaskFamily(
        name="copy-secret",
        description="Copy the secret from the vault to the target key.",
        bands=("easy", "medium"),
        generator=generate,
        generator_version=generator_version,
        rubric=Rubric(checks=tuple(checks), threshold=1.0),
    )


def toyvault(package: str, sha256: str | None, **options: Any) -> Environment:
    """The instrument's toy: environment ``toyvault`` with only ``copy-secret`` (`make_env`
    options break it on purpose)."""
    return make_env(package, sha256, families=("copy-secret",), name="toyvault", **options)
