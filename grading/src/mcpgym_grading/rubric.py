"""Rubrics and checks: what a grade is made of.

A rubric is a list of weighted checks over a sealed episode bundle plus a pass
threshold. Checks are declarative pydantic models, so a rubric has a canonical
JSON form and a stable digest (recorded in the environment lock).

Values that depend on the task variant are written as `Param` references, e.g.
``Param("order_id")``, resolved against ``TaskVariant.params`` at grading time.
SQL checks take named parameters (``:order_id``) bound from the variant params.

Check kinds:

- `SqlCheck`: run a query on the final database, compare to an expected scalar or rows.
- `StateMatchesReference`: named tables equal the reference end state (the variant's
  reference solution replayed on a fresh sandbox), ignoring volatile columns.
- `NoCollateralChanges`: no table outside the allowed ones differs from the reference end
  state (catches unrelated damage).
- `ToolCalled` / `ToolNotCalled` / `CalledBefore`: assertions on the tool-call log.
- `AnswerMatch`: a text (the submitted answer, or a SQL-selected text such as the last
  reply to the customer) contains / equals an expected value after normalisation.
"""

from __future__ import annotations

import hashlib
import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class Param(BaseModel):
    """A reference to a variant parameter, resolved at grading time."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["param"] = "param"
    name: str


Value = Any
"""A JSON value, possibly containing `Param` references (in lists and dicts too)."""


class _CheckBase(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str = Field(description="unique within the rubric, e.g. 'refund-amount'")
    description: str = ""
    weight: float = Field(1.0, ge=0)
    required: bool = False
    bands: tuple[str, ...] | None = Field(
        None, description="only apply in these bands (None: every band)"
    )
    when: str | None = Field(
        None, description="only apply when this variant param is truthy (None: always)"
    )


class SqlCheck(_CheckBase):
    """Run ``sql`` on the final database and compare with ``expected``.

    ``expected`` is a scalar (compared with the single value of a one-row,
    one-column result; no row compares as ``None``) or a list of rows (lists),
    compared order-insensitively unless ``ordered``.
    """

    kind: Literal["sql"] = "sql"
    sql: str
    expected: Value = None
    ordered: bool = False


class StateMatchesReference(_CheckBase):
    """Named tables of the final state equal those of the reference end state."""

    kind: Literal["state_matches_reference"] = "state_matches_reference"
    tables: tuple[str, ...]
    ignore_columns: dict[str, tuple[str, ...]] = Field(default_factory=dict)


class NoCollateralChanges(_CheckBase):
    """Every table except ``except_tables`` equals the reference end state.

    Volatile columns (``ignore_columns``) are left out of the comparison.
    """

    kind: Literal["no_collateral_changes"] = "no_collateral_changes"
    except_tables: tuple[str, ...] = ()
    ignore_columns: dict[str, tuple[str, ...]] = Field(default_factory=dict)


class ToolCalled(_CheckBase):
    """The log holds a successful call of ``tool`` whose arguments include ``arguments``."""

    kind: Literal["tool_called"] = "tool_called"
    tool: str
    arguments: dict[str, Value] = Field(default_factory=dict)
    min_times: int = 1


class ToolNotCalled(_CheckBase):
    """The log holds no successful call of ``tool`` matching ``arguments``."""

    kind: Literal["tool_not_called"] = "tool_not_called"
    tool: str
    arguments: dict[str, Value] = Field(default_factory=dict)


class CalledBefore(_CheckBase):
    """The first successful ``first`` call comes before the first successful ``then`` call.

    Passes vacuously if ``then`` was never called (pair it with `ToolCalled`).
    """

    kind: Literal["called_before"] = "called_before"
    first: str
    first_arguments: dict[str, Value] = Field(default_factory=dict)
    then: str
    then_arguments: dict[str, Value] = Field(default_factory=dict)


class AnswerMatch(_CheckBase):
    """A text contains (or equals) the expected value after normalisation.

    ``source``: ``"submitted"`` (the answer given to ``submit``) or ``"sql"``
    (the concatenation of the text values ``sql`` selects on the final database).
    ``normalize``: ``"text"`` (casefold, collapse whitespace), ``"token"`` (match
    whole alphanumeric tokens only, so ``10`` never matches inside ``$100``), or
    ``"money"`` (amounts like ``$1,234.50`` parsed to cents and compared to an
    expected integer number of cents).
    """

    kind: Literal["answer_match"] = "answer_match"
    source: Literal["submitted", "sql"] = "submitted"
    sql: str | None = None
    expected: Value
    normalize: Literal["text", "token", "money"] = "token"
    mode: Literal["contains", "equals"] = "contains"
    negate: bool = False


Check = Annotated[
    SqlCheck
    | StateMatchesReference
    | NoCollateralChanges
    | ToolCalled
    | ToolNotCalled
    | CalledBefore
    | AnswerMatch,
    Field(discriminator="kind"),
]


class Rubric(BaseModel):
    """Weighted checks for one task family, with a pass threshold.

    A grade passes when every applicable required check passes and the weighted
    score (sum of weights of passing checks / sum of applicable weights) is at
    least ``threshold``.

    Attributes:
        checks: the checks (names unique).
        threshold: pass threshold in [0, 1].
        volatile_columns: ``{table: (column, ...)}`` ignored by state comparisons in
            every check of this rubric (for example wall-clock-free but
            order-dependent ids).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    checks: tuple[Check, ...]
    threshold: float = Field(1.0, ge=0, le=1)
    volatile_columns: dict[str, tuple[str, ...]] = Field(default_factory=dict)

    def model_post_init(self, __context: Any) -> None:
        names = [c.name for c in self.checks]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"rubric check names must be unique; duplicated: {dupes}")

    def canonical_json(self) -> str:
        """Canonical JSON (sorted keys, no whitespace) of checks, weights and threshold."""
        return json.dumps(self.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))

    def digest(self) -> str:
        """Hex sha256 of `canonical_json`: changes whenever a check, weight or threshold does."""
        return hashlib.sha256(self.canonical_json().encode()).hexdigest()
