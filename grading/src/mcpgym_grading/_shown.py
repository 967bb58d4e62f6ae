r"""What an episode showed the agent, for guards over values only an agent that saw them can
state (`AnswerMatch.forbidden_shown`: another customer's order number, email, address).

An agent cannot reveal a value it never saw; the values it saw are the risk. What it saw is
the variant's instruction and every tool result and error message of the framework's
tool-call log, which the agent cannot write. `shown_of` joins them into one casefolded text
(`Shown`), read two ways: its *keys*, the texts that can name a record (digit runs: order,
ticket and tracking numbers; email addresses), and, only when a value must be tested, every
alphanumeric token (``[^\W_]+``: the words of a name or a street line, also inside a
ticket message).

A guard that reads only the shown values costs what the episode showed, not what the
database holds (thousands of other customers' values looked up in look-alike forms cost ten
times a whole grade). Its values query is run with two more named parameters:

- ``:shown``: the keys as a JSON array of texts (read it with ``json_each(:shown)``), so
  the query selects only the records the agent saw (an order whose number was shown, a
  customer whose email was), through the tables' keys;
- ``:shown_all``: ``1`` when the log kept only the head of a result (over the server's
  log value cap, `mcpgym_server._logcap`): what the agent saw is then unknown and the query
  must select every candidate (write ``(:shown_all OR ...)``); ``0`` otherwise.

Every value the query selects is then kept only when it was shown (`Shown.holds`: each of
its tokens is among the tokens shown), except under ``:shown_all``. A cheaper gate query
may come first (`AnswerMatch.shown_sql`): most episodes show the agent no record of another
party at all, and then the values query is not run.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cached_property
from typing import Any

from mcpgym_grading import _sqlmemo
from mcpgym_grading._values import bind_sql
from mcpgym_grading.errors import CheckEvaluationError
from mcpgym_server import TaskVariant
from mcpgym_server.bundles import EpisodeBundle

SHOWN_PARAM = "shown"
"""The named SQL parameter bound to the shown keys (a JSON array of casefolded texts)."""

SHOWN_ALL_PARAM = "shown_all"
"""The named SQL parameter that is 1 when what the agent saw is not all in the log."""

_TOKEN = re.compile(r"[^\W_]+")
_DIGITS = re.compile(r"[0-9]+")
_EMAIL = re.compile(r"[^\W_][\w.+-]*@[^\W_][\w-]*(?:\.[\w-]+)+")
_EMAIL_STOP = frozenset(" \t\n\r\"'<>()[]{},;:")
_ESCAPE = re.compile(r"\\(?:u[0-9a-f]{4}|.)")


def _emails(text: str) -> set[str]:
    """The email addresses in ``text``, read around each ``@`` (a regex scan of the whole
    text costs more than the rest of the check)."""
    out: set[str] = set()
    at = text.find("@")
    while at != -1:
        left = at
        while left > 0 and text[left - 1] not in _EMAIL_STOP:
            left -= 1
        right = at + 1
        while right < len(text) and text[right] not in _EMAIL_STOP:
            right += 1
        found = _EMAIL.search(text, left, right)
        if found is not None:
            out.add(found.group().rstrip(".-"))
        at = text.find("@", right)
    return out


class Shown:
    """What an episode showed the agent, read from ``text``: the instruction, tool results
    and error messages, casefolded, joined by line breaks (see `shown_of`).

    Attributes:
        text: that text.
        complete: ``False`` when the log capped a result the agent saw whole.
    """

    def __init__(self, text: str, complete: bool = True) -> None:
        self.text = text
        self.complete = complete

    @cached_property
    def keys(self) -> frozenset[str]:
        """The texts shown that can name a record: digit runs (order, ticket and tracking
        numbers) and email addresses."""
        return frozenset(_DIGITS.findall(self.text)) | _emails(self.text)

    @cached_property
    def texts(self) -> frozenset[str]:
        r"""Every alphanumeric token shown (``[^\W_]+``), and the `keys`."""
        return frozenset(_TOKEN.findall(self.text)) | self.keys

    def holds(self, value: Any) -> bool:
        """Whether ``value`` (a text or number) was shown: every alphanumeric token of it is
        in `texts` (a full name shown as a first and a last name, an email shown in a
        message). Always ``True`` when not `complete`; ``False`` for a value with no token."""
        if not self.complete:
            return True
        tokens = _TOKEN.findall(str(value).casefold())
        return bool(tokens) and all(t in self.texts for t in tokens)

    def bound(self) -> dict[str, Any]:
        """The two SQL parameters: `SHOWN_PARAM` (the `keys`, as a JSON array) and
        `SHOWN_ALL_PARAM`."""
        return {
            SHOWN_PARAM: json.dumps(sorted(self.keys)),
            SHOWN_ALL_PARAM: 0 if self.complete else 1,
        }


def shown_of(bundle: EpisodeBundle, variant: TaskVariant) -> Shown:
    """What ``bundle``'s episode showed the agent: ``variant``'s instruction and every result
    (status ``ok``) and error message of its tool-call log (see `Shown`)."""
    parts: list[str] = [variant.instruction]
    complete = True
    for entry in bundle.log:
        if entry.result_capped is not None:
            complete = False
        if isinstance(entry.result, str):
            parts.append(entry.result)
        elif entry.result is not None:  # its JSON text: keys are tokens too, which is harmless
            parts.append(json.dumps(entry.result, ensure_ascii=False))
        if entry.error:
            parts.append(entry.error)
    # a JSON escape ("\n") is a separator, not the start of the next token
    return Shown(_ESCAPE.sub(" ", "\n".join(parts).casefold()), complete)


def _query(db: Any, sql: str, params: Mapping[str, Any], shown: Shown) -> list[tuple[Any, ...]]:
    reserved = {SHOWN_PARAM, SHOWN_ALL_PARAM} & set(params)
    if reserved:
        raise CheckEvaluationError(
            f"variant param(s) {sorted(reserved)} clash with the shown-set SQL parameters"
        )
    columns, rows = _sqlmemo.query(db, sql, bind_sql(sql, {**params, **shown.bound()}))
    if columns is None:
        raise CheckEvaluationError("the SQL statement returns no columns; use a SELECT")
    return rows


def shown_values(
    db: Any, sql: str, params: Mapping[str, Any], shown: Shown, *, gate_sql: str | None = None
) -> list[str | int | float]:
    """The non-null values ``sql`` selects on ``db`` (variant ``params`` bound, and the
    shown set as `SHOWN_PARAM` / `SHOWN_ALL_PARAM`) that `Shown.holds`, in query order,
    without repeats. ``gate_sql`` (bound alike): when it selects no row, and the log holds
    every result whole, no value is selected and ``sql`` is not run.

    Raises:
        CheckEvaluationError: the variant has a param named like one of the two shown
            parameters, a query names a param the variant lacks, returns no columns, or
            ``sql`` selects a value that is neither a text nor a number.
    """
    if gate_sql and shown.complete and not _query(db, gate_sql, params, shown):
        return []
    out: list[str | int | float] = []
    seen: set[Any] = set()
    for row in _query(db, sql, params, shown):
        for v in row:
            if v is None or v in seen:
                continue
            if isinstance(v, bool) or not isinstance(v, str | int | float):
                raise CheckEvaluationError(f"a forbidden value must be a text or number, got {v!r}")
            seen.add(v)
            if shown.holds(v):
                out.append(v)
    return out
