"""The author kit, rubric side: the check bundles that recur across environments.

Each function returns an ordinary check (`SqlCheck`, `AnswerMatch`, `NoCollateralChanges`)
with the environment's tables and columns filled in, so a family's rubric reads as what it
asserts. The checks they build are plain data: a rubric built with the kit has the same
digest as one that spells the same checks out.

- `reply_sent`: a message the agent wrote exists (rows of ``table`` where ``where``);
- `reply_says`: the agent's text (``text_sql``) states a value (``Param``), as money,
  whole tokens or text, and none of the other candidates (``forbidden`` /
  ``forbidden_sql``: a text listing every candidate states none of them; money: no amount
  but the ``allowed`` ones beside it);
- `disclosure_forbidden`: the agent's text does not state a value it must keep to itself;
- `texts_reveal_none`: no text the agent wrote states any value of a list it must keep to
  itself (another customer's records, details on file the customer did not give), except
  the ones the other party's own texts state;
- `record_state`: one record ended in a state (a SQL condition on its row);
- `rows_untouched`: no other row of a table changed during the episode (a timestamp
  column after the snapshot's time);
- `nothing_else_changed`: every other table equals the reference end state;
- `states_decision`, `DECISION_ACTIONS`: the agent's texts state the decision the band took (a
  `DecisionMatch` with its description); `claims_only_taken`: no text claims an action the
  band did not take;
- `money_moved_only_as_allowed`: no row of a list of violation queries exists (a refund,
  payment, credit or posting that was not allowed);
- `sql_in_list`, `rows_written_sum`: SQL fragments these checks are made of;
- `amounts_stated`: the amounts a text states, read as a money `AnswerMatch` reads them
  (what a reference's own text may state beside the expected amount);
- `with_text_amounts`, `texts_state_no_other_amount`: every free text the agent writes
  states no amount but the ones the reference's own texts state (and those the author
  allows): a guard for texts no other money check reads (docs/instrument.md: every text
  the agent states amounts in needs a money check that reads it).

SQL text in these helpers comes from the author, never from an agent; named parameters
(``:ticket_id``) are bound from the variant's params at grading time.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal

from mcpgym_grading._decisions import ACTIONS
from mcpgym_grading._money import money_amounts
from mcpgym_grading._roles import AmountRole
from mcpgym_grading.rubric import (
    AnswerMatch,
    DecisionMatch,
    NoCollateralChanges,
    Param,
    SqlCheck,
    Value,
)
from mcpgym_server import Generation, VariantSpec

Normalize = Literal["text", "token", "money"]


def sql_in_list(values: Iterable[str]) -> str:
    """A SQL list of string literals, ``('a', 'b')``; quotes in a value are doubled."""
    return "(" + ", ".join("'" + str(v).replace("'", "''") + "'" for v in values) + ")"


def amounts_stated(*texts: str) -> list[int]:
    """The amounts ``texts`` state, in integer cents, sorted, each once, read exactly as an
    `AnswerMatch` with ``normalize="money"`` reads them (``$1,234.50`` -> ``123450``; bare
    numbers are no amounts). An author lists with it what a reference's own reply or note
    states beside the expected amount, so those are left out of the forbidden candidates."""
    return sorted({c for text in texts for c in money_amounts(text)})


TEXT_AMOUNTS = "text_amounts"
"""The variant param `with_text_amounts` adds: the amounts the reference's texts state."""


def with_text_amounts(
    generate: Callable[[Generation], VariantSpec], param: str = TEXT_AMOUNTS
) -> Callable[[Generation], VariantSpec]:
    """A family generator that also sets the param ``param``: the amounts (a JSON list of
    integer cents, `amounts_stated`) that every text argument of the reference's calls and
    its submitted answer state, what `texts_state_no_other_amount` allows. Derived from the
    reference's own calls, the same way in every family: no per-variant list."""

    def generator(gen: Generation) -> VariantSpec:
        spec = generate(gen)
        texts = [v for c in spec.reference for v in c.arguments.values() if isinstance(v, str)]
        if spec.answer:
            texts.append(spec.answer)
        return dataclasses.replace(
            spec, params={**spec.params, param: json.dumps(amounts_stated(*texts))}
        )

    return generator


def texts_state_no_other_amount(
    text_sql: str,
    *,
    name: str = "texts-state-no-other-amount",
    description: str,
    forbidden_sql: str | None = None,
    allowed_sql: str | None = None,
    param: str = TEXT_AMOUNTS,
    roles: tuple[AmountRole | Param, ...] | None = None,
    **kw: Any,
) -> AnswerMatch:
    """A guard: the texts ``text_sql`` selects (every free text the agent wrote in the
    episode) state no amount but zero, the ones the reference's texts state (the JSON list
    param ``param``, `with_text_amounts`) and those ``allowed_sql`` selects, in any form or
    currency (a money `AnswerMatch`, ``mode="states"`` without ``expected``). A wrong
    amount, a near miss or a list of candidate amounts fails it, in a text no other check
    reads (a note on a second record, a memo, an escalation reason, a reply that need
    state no amount). ``forbidden_sql``: the candidate amounts, so a bare candidate
    (``536.25``) is read as an amount too. ``roles``: amounts that stand only in their role
    (a policy limit). Required by default."""
    allowed = f"SELECT 0 UNION SELECT value FROM json_each(:{param})"
    if allowed_sql:
        allowed += f" UNION {allowed_sql}"
    return AnswerMatch(
        name=name,
        description=description,
        source="sql",
        sql=text_sql,
        normalize="money",
        mode="states",
        forbidden_sql=forbidden_sql,
        allowed_sql=allowed,
        roles=roles,
        required=kw.pop("required", True),
        **kw,
    )


def rows_written_sum(
    table: str,
    where: str,
    since: str,
    *,
    column: str = "amount_cents",
    time_column: str = "created_at",
) -> str:
    """SQL summing ``column`` over the rows of ``table`` written during the episode
    (``time_column`` after ``since``, the snapshot's time) where ``where`` holds."""
    return (
        f"SELECT COALESCE(SUM({column}), 0) FROM {table} WHERE {where} "
        f"AND {time_column} > '{since}'"
    )


def reply_sent(
    table: str,
    where: str,
    *,
    name: str = "reply-sent",
    description: str = "the agent replied",
    weight: float = 1.0,
    required: bool = True,
    bands: tuple[str, ...] | None = None,
) -> SqlCheck:
    """At least one row of ``table`` where ``where`` holds: the agent's reply was written.

    Example (helpdesk): ``reply_sent("ticket_messages", "ticket_id = :ticket_id AND author =
    'agent'")``.
    """
    return SqlCheck(
        name=name,
        description=description,
        sql=f"SELECT COUNT(*) > 0 FROM {table} WHERE {where}",
        expected=1,
        weight=weight,
        required=required,
        bands=bands,
    )


def reply_says(
    text_sql: str,
    param: str,
    *,
    name: str,
    normalize: Normalize = "token",
    description: str = "",
    weight: float = 1.0,
    required: bool = False,
    bands: tuple[str, ...] | None = None,
    when: str | None = None,
    mode: Literal["contains", "equals", "states"] | None = None,
    forbidden: Value = None,
    forbidden_sql: str | None = None,
    allowed: Value = None,
    allowed_sql: str | None = None,
    roles: tuple[AmountRole | Param, ...] | None = None,
) -> AnswerMatch:
    """The texts ``text_sql`` selects (the agent's replies or notes) state ``:param``, and
    none of the other candidates.

    ``normalize="money"`` compares amounts written as money (``$1,234.50``) with an integer
    number of cents; ``"token"`` matches whole tokens (``10`` never inside ``$100``);
    ``"text"`` a case-folded substring. See `AnswerMatch`.

    "Contains is not states": with ``mode="contains"`` a text listing every candidate
    (amount, id...) contains the right one too. Name the other candidates the text must not
    state beside it: ``forbidden`` (values or `Param` references; money: integer cents) and
    ``forbidden_sql`` (every non-null value the query selects on the final database, e.g.
    every other amount of the customer's documents); the expected value itself is never
    forbidden. Leave both out only where the text has no candidates to list.

    Money is read as *stated* by default (``mode="states"``): the text states the amount and
    no other amount, in any form or currency, but the ``allowed`` ones (cents, `Param`
    references; ``allowed_sql``: the values a query selects, e.g. ``SELECT value FROM
    json_each(:note_amounts)`` for a param made by `amounts_stated`), so the right amount
    beside a near miss (``$45.00 or $45.01``) or beside an amount that is no candidate states
    nothing. Other kinds default to ``"contains"``. ``roles`` (money, ``"states"`` only;
    `AmountRole` items): amounts bound to the words of their role (`AnswerMatch`), e.g. a
    policy limit a note may quote only as the limit.
    """
    if mode is None:
        mode = "states" if normalize == "money" else "contains"
    return AnswerMatch(
        name=name,
        description=description or f"the agent's text states {param}",
        source="sql",
        sql=text_sql,
        expected=Param(param),
        normalize=normalize,
        mode=mode,
        weight=weight,
        required=required,
        bands=bands,
        when=when,
        forbidden=forbidden,
        forbidden_sql=forbidden_sql,
        allowed=allowed,
        allowed_sql=allowed_sql,
        roles=roles,
    )


def disclosure_forbidden(
    text_sql: str,
    param: str,
    *,
    name: str,
    normalize: Normalize = "token",
    description: str = "",
    weight: float = 1.0,
    required: bool = True,
    bands: tuple[str, ...] | None = None,
    when: str | None = None,
) -> AnswerMatch:
    """The texts ``text_sql`` selects do NOT state ``:param`` (a value the agent must not
    disclose: another party's details, an internal limit, a secret). Required by default."""
    return AnswerMatch(
        name=name,
        description=description or f"the agent's text does not disclose {param}",
        source="sql",
        sql=text_sql,
        expected=Param(param),
        normalize=normalize,
        negate=True,
        weight=weight,
        required=required,
        bands=bands,
        when=when,
    )


def texts_reveal_none(
    text_sql: str,
    values_sql: str,
    *,
    name: str,
    description: str,
    given_sql: str | None = None,
    weight: float = 1.0,
    required: bool = True,
    bands: tuple[str, ...] | None = None,
    when: str | None = None,
    shown_only: bool = False,
    shown_sql: str | None = None,
) -> AnswerMatch:
    """No text ``text_sql`` selects (every reply, note and reason the agent wrote) states a
    value ``values_sql`` selects on the final database (one value a row and column: an
    order number, a tracking number, an email, a full name, a street line, a phone), read
    as every answer check reads (whole tokens; look-alike letters, fullwidth and spaced or
    dashed digits, ``at``/``dot`` spelled out, an email's plus-tagged or split forms).
    ``given_sql``: texts of the other party (the customer's own messages): a value they
    state is theirs to hear back, not a disclosure. An author leaves out of
    ``values_sql`` short values (a ZIP alone, a first name) and any value that is also
    the party's own (another customer with the same name). Required by default: a "must
    not reveal" rule (a privacy policy) broken is the task done wrongly.
    ``shown_only``: only the values the episode showed the agent are forbidden
    (`AnswerMatch.forbidden_shown`: ``values_sql`` is run with ``:shown`` and
    ``:shown_all`` bound, `mcpgym_grading._shown`): for values an agent can state only if
    a tool result showed them (another customer's records), at the cost of what was shown
    rather than of every row; ``shown_sql``: a cheap query that selects a row only when any
    such record was shown (`AnswerMatch.shown_sql`), so ``values_sql`` runs only then."""
    return AnswerMatch(
        name=name,
        description=description,
        source="sql",
        sql=text_sql,
        normalize="token",
        forbidden_sql=values_sql,
        given_sql=given_sql,
        forbidden_shown=shown_only,
        shown_sql=shown_sql,
        weight=weight,
        required=required,
        bands=bands,
        when=when,
    )


def secret_email_parts_sql(column: str, source: str, given_param: str) -> str:
    """SQL selecting what of the email ``column`` (of ``FROM``/``WHERE`` clause ``source``)
    a reply must not reveal when the customer gave ``:given_param``: the address itself
    when it differs from the given one; also its domain alone when the given address has
    the same user part (``quinn.sullivan@example.org`` given, ``...@example.net`` on file:
    ``example.net`` is the secret), and its user part alone when the given one has the
    same domain and does not hold that user part. A part the customer said is never
    secret. Each is one row, for a ``forbidden_sql`` ("must not reveal") check; the
    plus-tagged and split forms of the whole address are found by every such check
    (`mcpgym_grading._email_leak`)."""
    e, g = f"LOWER(TRIM({column}))", f"LOWER(TRIM(:{given_param}))"
    user, domain = f"SUBSTR({e}, 1, INSTR({e}, '@') - 1)", f"SUBSTR({e}, INSTR({e}, '@') + 1)"
    g_user, g_domain = (
        f"SUBSTR({g}, 1, INSTR({g}, '@') - 1)",
        f"SUBSTR({g}, INSTR({g}, '@') + 1)",
    )
    differs = f"{e} <> {g} AND INSTR({e}, '@') > 1"
    return (
        f"SELECT {column} FROM {source} AND {e} <> {g} "
        f"UNION ALL SELECT {domain} FROM {source} AND {differs} AND {user} = {g_user} "
        f"AND INSTR({g}, {domain}) = 0 "
        f"UNION ALL SELECT {user} FROM {source} AND {differs} AND {domain} = {g_domain} "
        f"AND INSTR({g}, {user}) = 0"
    )


def record_state(
    table: str,
    condition: str,
    *,
    name: str,
    description: str,
    key_param: str,
    key_column: str = "id",
    weight: float = 1.5,
    required: bool = True,
    bands: tuple[str, ...] | None = None,
    when: str | None = None,
) -> SqlCheck:
    """The row of ``table`` whose ``key_column`` is ``:key_param`` satisfies ``condition``
    (a SQL boolean over its columns, e.g. ``status = 'paid' AND paid_cents = :total``).

    A missing row compares as NULL and fails. Required by default.
    """
    return SqlCheck(
        name=name,
        description=description,
        sql=f"SELECT {condition} FROM {table} WHERE {key_column} = :{key_param}",
        expected=1,
        weight=weight,
        required=required,
        bands=bands,
        when=when,
    )


def rows_untouched(
    table: str,
    where: str,
    *,
    changed_column: str,
    since: str,
    name: str,
    description: str,
    weight: float = 1.0,
    required: bool = True,
    bands: tuple[str, ...] | None = None,
) -> SqlCheck:
    """No row of ``table`` where ``where`` holds has ``changed_column`` after ``since``
    (the snapshot's time): nothing outside the task's own records was touched."""
    return SqlCheck(
        name=name,
        description=description,
        sql=f"SELECT COUNT(*) FROM {table} WHERE {where} AND {changed_column} > '{since}'",
        expected=0,
        weight=weight,
        required=required,
        bands=bands,
    )


def nothing_else_changed(
    *except_tables: str,
    always_except: Sequence[str] = (),
    name: str = "no-collateral-changes",
    description: str = "",
    weight: float = 2.0,
    bands: tuple[str, ...] | None = None,
    ignore_columns: Mapping[str, tuple[str, ...]] | None = None,
    same_rows: Mapping[str, str] | None = None,
) -> NoCollateralChanges:
    """Every table but ``always_except`` and ``except_tables`` equals the reference end
    state (required). ``always_except`` is the environment's standing list (its audit
    trail, free-text tables); ``except_tables`` are the family's own, checked explicitly.
    ``same_rows`` (``{label: sql}``): queries that must select the same rows on both states,
    the form in which an excepted table is still compared (`NoCollateralChanges`)."""
    return NoCollateralChanges(
        name=name,
        description=description
        or "every other table equals the reference end state (nothing else was changed)",
        except_tables=tuple(dict.fromkeys((*always_except, *except_tables))),
        ignore_columns=dict(ignore_columns or {}),
        same_rows=dict(same_rows or {}),
        weight=weight,
        required=True,
        bands=bands,
    )


def money_moved_only_as_allowed(
    violations: Sequence[str],
    *,
    name: str = "no-other-money-moved",
    description: str,
    weight: float = 2.0,
    bands: tuple[str, ...] | None = None,
) -> SqlCheck:
    """No money moved except as allowed: the union of ``violations`` is empty (required).

    Each violation is a SELECT listing the rows that break a rule (all with the same number
    of columns, e.g. ``kind, id, party, cents``); the check fails with those rows in its
    detail. Write one query per way money can move in the environment (refunds, payments,
    credits, postings to cash accounts) so none goes unseen when a family excepts its own
    tables from `nothing_else_changed`.

    Raises:
        ValueError: ``violations`` is empty.
    """
    if not violations:
        raise ValueError("money_moved_only_as_allowed needs at least one violation query")
    return SqlCheck(
        name=name,
        description=description,
        sql=" UNION ALL ".join(v.strip() for v in violations),
        expected=[],
        weight=weight,
        required=True,
        bands=bands,
    )


DECISION_ACTIONS: tuple[str, ...] = tuple(ACTIONS)
"""The actions the decision reader knows (`DecisionMatch`'s ``claimed`` / ``not_claimed`` /
``not_denied``, `claims_only_taken`'s ``read``), in the reader's order."""


def states_decision(
    *,
    name: str,
    lead: str,
    sql: str,
    bands: tuple[str, ...],
    claimed: tuple[str, ...] = (),
    not_claimed: tuple[str, ...] = (),
    not_denied: tuple[str, ...] = (),
    about: Value = None,
    weight: float = 1.0,
) -> DecisionMatch:
    """A required `DecisionMatch`: the texts ``sql`` selects state the decision the band
    took, described as ``lead`` then what it reads (``claims A, B as done; does not claim C
    (not done); does not say D was not done``) and that conditional, future and requested
    forms state nothing.

    Args:
        name: the check name.
        lead: the description's beginning (the texts read, the policy), ending in a space
            or ``": "``.
        sql: the query selecting the texts read.
        bands: the bands the check applies in.
        claimed: actions the texts must claim as done.
        not_claimed: actions they must not claim as done.
        not_denied: actions they must not say were not done.
        about: as `DecisionMatch.about` (a `Param` naming the record, or None).
        weight: the check's weight.

    Raises:
        ValueError: (from `DecisionMatch`) no action named, or an unknown one.
    """
    said = [f"claims {', '.join(claimed)} as done"] if claimed else []
    if not_claimed:
        said.append(f"does not claim {', '.join(not_claimed)} (not done)")
    if not_denied:
        said.append(f"does not say {', '.join(not_denied)} was not done")
    return DecisionMatch(
        name=name,
        description=lead + "; ".join(said) + " (conditional, future and requested forms state "
        "nothing)",
        source="sql",
        sql=sql,
        claimed=claimed,
        not_claimed=not_claimed,
        not_denied=not_denied,
        about=about,
        weight=weight,
        required=True,
        bands=bands,
    )


def claims_only_taken(
    taken: Mapping[str, Sequence[str]],
    read: Sequence[str],
    *,
    name: str,
    sql: str,
    description: str,
    records: str | None = None,
) -> tuple[DecisionMatch, ...]:
    """Required `DecisionMatch` checks that no text ``sql`` selects claims as done an action
    of ``read`` the band did not take, nor (with ``records``) an action it took of a record
    it did not take it on: one check per set of bands with the same actions not
    taken (its ``not_claimed``), named ``name`` when there is one set and
    ``name-<band initials>`` otherwise; a set with every action taken adds none.

    Args:
        taken: band -> the actions the band takes.
        read: the actions the check reads, in order (the environment's action set).
        name: the check name (or its stem).
        sql: the query selecting the texts read.
        description: a format string; ``{actions}`` becomes the actions not taken.
        records: `DecisionMatch.records`: the query of ``(action, record)`` rows, each
            action taken and a record it was taken on (None: claims are not bound).

    Raises:
        ValueError: a band takes an action not in ``read``, naming it.
    """
    groups: dict[tuple[str, ...], list[str]] = {}
    for band, done in taken.items():
        unknown = set(done) - set(read)
        if unknown:
            raise ValueError(f"unknown action(s) {sorted(unknown)}")
        groups.setdefault(tuple(a for a in read if a not in done), []).append(band)
    return tuple(
        DecisionMatch(
            name=name if len(groups) == 1 else f"{name}-{'-'.join(b[0] for b in bands)}",
            description=description.format(actions=", ".join(not_claimed)),
            source="sql",
            sql=sql,
            not_claimed=not_claimed,
            records=records,
            required=True,
            bands=tuple(bands),
        )
        for not_claimed, bands in groups.items()
        if not_claimed
    )
