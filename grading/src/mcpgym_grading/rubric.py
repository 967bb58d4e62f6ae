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
- `ToolArgumentsOnly`: every call of a tool in the log, refused calls included, used only
  allowed values (a log assertion: a refused call leaves no row).
- `AnswerMatch`: a text (the submitted answer, or a SQL-selected text such as the
  replies to the customer) contains / equals an expected value and none of the forbidden
  ones, all read in one canonical form (fullwidth, dashes, spaces, split digits folded).
- `DecisionMatch`: a text claims the actions the band took as done and not those it did
  not take (a closed set of actions read by `mcpgym_grading._decisions`).
- `MentionMatch`: a text names the expected item of a closed vocabulary (a period, a
  team) in any of its forms, and no other item.
"""

from __future__ import annotations

import hashlib
import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from mcpgym_grading._decisions import ACTIONS
from mcpgym_grading._periods import PeriodReader
from mcpgym_grading._roles import AmountRole
from mcpgym_grading._terms import Lexicon
from mcpgym_server import BANDS

DEFAULT_REL_TOL = 1e-12
"""`SqlCheck`'s default relative tolerance for floats: binary rounding, nothing more (a
float sum of thousands of values stays within it; an off-by-one at 1e9 does not, and
integral values never compare close under it, see `mcpgym_grading._values.values_close`)."""

_DIGEST_DEFAULTS: dict[str, dict[str, Any]] = {
    "sql": {"rel_tol": DEFAULT_REL_TOL, "abs_tol": 0.0},
    "no_collateral_changes": {"same_rows": {}},
    "answer_match": {
        "signed": True,
        "forbidden": None,
        "forbidden_sql": None,
        "allowed": None,
        "allowed_sql": None,
        "roles": None,
        "given_sql": None,
        "forbidden_shown": False,
        "shown_sql": None,
        "signed_money": False,
    },
    "mention_match": {"range_allowed": None, "others_sql": None},
    "decision_match": {"records": None},
}
"""Options added after rubrics were signed: left out of the canonical JSON while at their
default, so a rubric that does not use them keeps its digest (and its sign-off)."""

_DIGEST_ROLE_DEFAULTS: dict[str, Any] = {"binds_others": True, "yields_to_sql": None}
"""`AmountRole` options added after rubrics with roles were signed (as `_DIGEST_DEFAULTS`)."""


class Param(BaseModel):
    """A reference to a variant parameter, resolved at grading time.

    Write it as ``Param("order_id")`` (or ``Param(name="order_id")``). In JSON it is
    ``{"kind": "param", "name": "order_id"}``; the grader accepts both forms, also
    nested inside lists and dicts.
    """

    model_config = ConfigDict(frozen=True)
    kind: Literal["param"] = "param"
    name: str

    def __init__(self, name: str | None = None, /, **data: Any) -> None:
        if name is not None:
            data["name"] = name
        super().__init__(**data)


Value = Any
"""A JSON value, possibly containing `Param` references (in lists and dicts too)."""


class _CheckBase(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str = Field(description="unique within the rubric, e.g. 'refund-amount'")
    description: str = ""
    weight: float = Field(default=1.0, ge=0)
    required: bool = False
    bands: tuple[str, ...] | None = Field(
        default=None, description="only apply in these bands (None: every band)"
    )
    when: str | None = Field(
        default=None,
        description="only apply when this variant param is truthy (None: always); "
        "naming a param the variant lacks is an evaluation error",
    )

    @field_validator("bands")
    @classmethod
    def _known_bands(cls, bands: tuple[str, ...] | None) -> tuple[str, ...] | None:
        if bands is not None:
            bad = [b for b in bands if b not in BANDS]
            if bad:
                raise ValueError(f"unknown band(s) {bad}; bands are {list(BANDS)}")
        return bands


class SqlCheck(_CheckBase):
    """Run ``sql`` on the final database and compare with ``expected``.

    ``expected`` is a scalar (compared with the single value of a one-row,
    one-column result; no row compares as ``None``; several rows fail the check)
    or a list of rows (lists; a non-list row stands for a one-column row),
    compared order-insensitively unless ``ordered``. Values are compared after
    JSON normalisation: numbers numerically (``1 == 1.0``), strings exactly.
    When either side of a comparison is a float, the two compare equal within
    ``rel_tol`` (relative) or ``abs_tol`` (absolute), as `math.isclose`: the
    defaults absorb binary rounding only (``0.1 + 0.2`` equals ``0.3``, ``0.31``
    does not) and never make two integral values equal, however large (``1e9`` and
    ``1e9 + 1.0``: an amount or count stored as REAL is off by one, not rounded); a wider
    ``rel_tol`` or any ``abs_tol`` applies to every pair; ``rel_tol=0`` and ``abs_tol=0``
    compare floats exactly. Integers always compare exactly. Named parameters
    (``:order_id``) are bound from the variant params. A query that fails, or whose
    column count does not fit ``expected``, is an evaluation error. The query may call
    ``mcpgym_fold(text)``: the text in the canonical form of every answer check (fullwidth,
    any space or dash, invisible characters folded), so a text match in SQL reads what
    `AnswerMatch` reads.
    """

    kind: Literal["sql"] = "sql"
    sql: str
    expected: Value = Field(
        description="scalar or rows (lists); required, so a forgotten expectation is an error"
    )
    ordered: bool = False
    rel_tol: float = Field(default=DEFAULT_REL_TOL, ge=0)
    abs_tol: float = Field(default=0.0, ge=0)


class StateMatchesReference(_CheckBase):
    """Named tables of the final state equal those of the reference end state.

    Rows are matched by primary key (by the whole row, as a multiset, when the table
    has none or a key column is ignored). The rubric's ``volatile_columns`` and this
    check's ``ignore_columns`` are left out. A table missing on one side compares as
    empty; a table on neither side, or an ignored column that does not exist, is an
    evaluation error. On failure the detail holds a per-table diff (counts of added,
    removed and changed rows, up to 5 examples each).
    """

    kind: Literal["state_matches_reference"] = "state_matches_reference"
    tables: tuple[str, ...]
    ignore_columns: dict[str, tuple[str, ...]] = Field(default_factory=dict)


class NoCollateralChanges(_CheckBase):
    """Every table except ``except_tables`` equals the reference end state.

    Every table of either database is compared (``sqlite_*`` internals excepted;
    the framework's ``mcpgym_counters`` is state and is compared), as in
    `StateMatchesReference`. Volatile columns (``ignore_columns`` and the rubric's
    ``volatile_columns``) are left out of the comparison.

    ``same_rows`` (``{label: sql}``): queries whose rows must be the same on the final
    state as on the reference end state, compared as multisets (order and duplicates
    counted; named parameters bound from the variant params). They compare what matters of
    an excepted table whose rows may honestly differ in form: a journal whose entries are
    split differently is compared as its debits and credits per date and account, not row
    by row; rows told apart only by an id the agent may choose either way are compared
    with that id folded. A differing query is reported under ``query_diff``.
    """

    kind: Literal["no_collateral_changes"] = "no_collateral_changes"
    except_tables: tuple[str, ...] = ()
    ignore_columns: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    same_rows: dict[str, str] = Field(default_factory=dict)


class ToolCalled(_CheckBase):
    """The log holds at least ``min_times`` successful calls of ``tool`` matching ``arguments``.

    A successful call is a log entry with status ``ok``. A call matches when every
    key of ``arguments`` equals the argument the tool received (the logged
    arguments validated against the tool's schema, so ``"7"`` given for an
    integer parameter counts as ``7`` and defaults count); numbers compare
    numerically, strings and booleans exactly. Naming a tool or an argument the
    environment does not declare is an evaluation error.
    """

    kind: Literal["tool_called"] = "tool_called"
    tool: str
    arguments: dict[str, Value] = Field(default_factory=dict)
    min_times: int = Field(default=1, ge=1)


class ToolNotCalled(_CheckBase):
    """The log holds no successful call of ``tool`` matching ``arguments`` (see `ToolCalled`)."""

    kind: Literal["tool_not_called"] = "tool_not_called"
    tool: str
    arguments: dict[str, Value] = Field(default_factory=dict)


class ToolArgumentsOnly(_CheckBase):
    """Every call of ``tool`` the log holds, refused ones included, gives each argument named
    in ``allowed`` only one of its allowed values.

    A refused call (status ``tool_error``, or arguments the tool's schema refused) writes
    nothing, so only the framework's tool-call log shows it: this is the log assertion for
    "use only the values the customer gave, do not try values of your own". The calls read
    are those matching ``arguments`` (as `ToolCalled` matches them). ``allowed`` maps an
    argument to its allowed values (a list; `Param` references resolved, a list param
    spreads); ``None`` among them allows the argument left out or null. Texts compare
    stripped and casefolded (the spelling of a value the customer gave is not the point); a
    call whose arguments the log capped is unknown, so it fails the check.
    """

    kind: Literal["tool_arguments_only"] = "tool_arguments_only"
    tool: str
    arguments: dict[str, Value] = Field(default_factory=dict)
    allowed: dict[str, Value]


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
    """A text states the expected value, and none of the forbidden ones.

    ``source``: ``"submitted"`` (the answer given to ``submit``) or ``"sql"``
    (the text values ``sql`` selects on the final database, every non-null value of
    every row, in order: the replies of an episode, say).

    Every text is read in one canonical form (`mcpgym_grading._text`): NFKC (fullwidth
    characters are ASCII), every kind of space, line break and dash the same, invisible
    characters dropped, casefolded. The expected value and every forbidden value are
    looked for in that same form, across all the selected texts at once.

    ``normalize``: ``"text"`` (the folded text, whitespace collapsed), ``"token"`` (whole
    alphanumeric tokens only, so ``10`` never matches inside ``$100``; digit groups split
    by spaces or a dash of any kind are joined, ``9405 5932`` is ``94055932``; and
    spelled-out separators such as ``at`` and ``dot`` also count as separators), or
    ``"money"`` (every money mention of the text, in any form, parsed to a currency and
    cents, `mcpgym_grading._money`: ``$1,234.50``, ``1234.50 USD``, ``12 dollars 50``,
    ``4500 cents``, ``forty-five dollars``, ``$45k``, ``45,00 $``, ``$45⁰⁰``; ``€45`` or
    ``45 CAD`` are mentions in another currency, never the expected US-dollar amount; the
    sign is ignored; bare numbers are not amounts), compared to an expected integer number
    of cents.
    ``mode``: ``"contains"`` (text: substring; token: contiguous token sequence;
    money: any amount equals), ``"equals"`` (the whole normalised text or token
    list equals; money: at least one amount and every amount equals) or ``"states"``
    (money only: the text states the expected amount and no other amount, in any currency,
    except the ``allowed`` ones: "contains is not states", so the right amount beside a
    near miss, ``$45.00 or $45.01``, or beside any amount not allowed, states nothing;
    without ``expected``: the text states no amount but the ``allowed`` ones, a guard over
    a text that may state amounts but must state no wrong one).
    ``allowed`` / ``allowed_sql`` (``"states"`` only; values or `Param` references, a list
    is several; the query's non-null values; integer cents): the other amounts the text may
    state (the policy figures, the other amounts the reference's own text states).
    ``roles`` (``"states"``, or a money check without ``expected``: then the text passes
    only if every role-bound amount in it stands in its role; `AmountRole` items, or a
    `Param` naming a variant param that lists the variant's own roles, see
    `mcpgym_grading._roles.resolve_roles`): amounts bound to the words of
    their role, read clause by clause (`mcpgym_grading._roles`): a reply that swaps two
    allowed amounts' roles ("refunded $349.00 ... $89.00 is above the limit") states nothing.
    ``signed`` (token): a number's leading minus sign is part of it, so ``-5`` and
    ``5`` differ (default); ``False`` ignores signs. Forbidden values, and ``expected``
    of a negated check, are found whatever sign is glued to them (a leak either way).

    ``forbidden`` (values, `Param` references allowed; a list is several values) and
    ``forbidden_sql`` (every non-null value the query selects on the final database) are
    values the text must not state: the check fails when any of them is found, the same
    way ``expected`` is (money: integer cents). This is how an answer check refuses a
    shotgun answer (every candidate listed, the right one among them: name the other
    candidates as forbidden) and how a "must not reveal" check is written (``expected``
    left out). A forbidden value equal to, or inside, the expected value is not
    forbidden; an author keeps short values (a 2-digit number) out of the list.
    ``given_sql`` (``"text"`` / ``"token"``; every non-null text the query selects on the
    final database, e.g. the customer's own messages): a forbidden value those texts state,
    read the same way, is not forbidden (what the other party said is theirs to hear back:
    the phone number a customer wrote, the address they asked to ship to).
    ``forbidden_shown`` (default ``False``): only the ``forbidden_sql`` values the episode
    showed the agent are forbidden (`mcpgym_grading._shown`: the instruction, every tool
    result and error message): the query runs with ``:shown`` (a JSON array of what was
    shown, read with ``json_each``) and ``:shown_all`` bound, so it can select only the
    records the agent saw, and each value it selects counts only when every token of it was
    shown. For a guard over values an agent can state only if it saw them (another
    customer's records): it then costs what the episode showed, not the table's size.
    ``shown_sql`` (with ``forbidden_shown``; default ``None``): a cheaper query, with the same
    two parameters, that selects a row when the episode showed any record ``forbidden_sql``
    reads (another customer's order number, their email); when it selects none, nothing is
    forbidden and ``forbidden_sql`` is not run (most episodes show no such record).

    ``signed_money`` (money; default ``False``): an amount written with a minus sign
    (``-$949.00``, `mcpgym_grading._money.Mention.negative`) is that negative amount, which
    no listed (positive) amount equals: a guard refuses it, an expected amount is not
    stated by it. Off, a sign is ignored (``-$5`` states 500).

    ``negate`` inverts the outcome of ``expected`` (it cannot be combined with
    forbidden values). An empty SQL result is the empty text.
    """

    kind: Literal["answer_match"] = "answer_match"
    source: Literal["submitted", "sql"] = "submitted"
    sql: str | None = None
    expected: Value = None
    normalize: Literal["text", "token", "money"] = "token"
    mode: Literal["contains", "equals", "states"] = "contains"
    negate: bool = False
    signed: bool = True
    forbidden: Value = None
    forbidden_sql: str | None = None
    allowed: Value = None
    allowed_sql: str | None = None
    roles: tuple[AmountRole | Param, ...] | None = None
    given_sql: str | None = None
    forbidden_shown: bool = False
    shown_sql: str | None = None
    signed_money: bool = False

    @model_validator(mode="after")
    def _consistent(self) -> AnswerMatch:
        if self.source == "sql" and not self.sql:
            raise ValueError(f"check {self.name!r}: source 'sql' needs `sql`")
        has_forbidden = self.forbidden is not None or bool(self.forbidden_sql)
        if self.expected is None and not has_forbidden and self.mode != "states":
            raise ValueError(
                f"check {self.name!r}: give `expected`, or the values the text must not state "
                "(`forbidden`, `forbidden_sql`)"
            )
        if self.mode == "states" and self.normalize != "money":
            raise ValueError(
                f"check {self.name!r}: mode 'states' is for a money check (the text states "
                "the `expected` amount, or none, and no other but the `allowed` ones)"
            )
        if self.given_sql and (self.normalize == "money" or not has_forbidden):
            raise ValueError(
                f"check {self.name!r}: `given_sql` clears forbidden texts or tokens only "
                "(give `forbidden` or `forbidden_sql`, normalize 'text' or 'token')"
            )
        if self.forbidden_shown and (not self.forbidden_sql or self.normalize == "money"):
            raise ValueError(
                f"check {self.name!r}: `forbidden_shown` reads `forbidden_sql` values as "
                "texts or tokens (give `forbidden_sql`, normalize 'text' or 'token')"
            )
        if self.shown_sql and not self.forbidden_shown:
            raise ValueError(f"check {self.name!r}: `shown_sql` needs `forbidden_shown`")
        if (self.allowed is not None or self.allowed_sql) and self.mode != "states":
            raise ValueError(
                f"check {self.name!r}: `allowed` / `allowed_sql` are for mode 'states' only"
            )
        if (
            self.roles is not None
            and self.mode != "states"
            and (self.expected is not None or self.normalize != "money")
        ):
            raise ValueError(
                f"check {self.name!r}: `roles` are for mode 'states' only, or for a money "
                "check without `expected` (role-bound amounts it may meet)"
            )
        if self.negate and (has_forbidden or self.expected is None):
            raise ValueError(
                f"check {self.name!r}: `negate` inverts `expected` only; write values the text "
                "must not state as `forbidden` / `forbidden_sql` instead"
            )
        return self


class MentionMatch(_CheckBase):
    """A text names the expected item of a closed vocabulary, and no item but the allowed.

    Where `AnswerMatch` looks for values one by one, this reads every mention of the
    vocabulary in the text with a *reader*, so an item written in any of its forms is
    named, and a text naming several items (a shotgun of alternatives) names none:

    - ``reader=PeriodReader()`` (`mcpgym_grading._periods`): periods of the books, items
      ``YYYY-MM``: month names and abbreviations, numeric months and dates in either
      order, fiscal periods (``P4``, ``FY26 P4``), quarters, halves, whole years and
      ranges, each naming every month it covers (``Q2`` names April, May and June);
    - ``reader=Lexicon(items=...)`` (`mcpgym_grading._terms`): the items of an app (its
      teams), by their names and word forms, qualifiers before a unit noun (``returns
      team``), glued and compound forms; a team-like name that is none of the items is a
      mention of another item (``escalations team``), unless ``others="ignored"``.

    The check passes when the text has an *exact* mention of ``expected`` (the item as
    the vocabulary names it: a month, not a date in it nor a quarter holding it) and every
    mention, of any precision, names only ``expected`` or the ``allowed`` items (a date
    both orders could be is within them when either reading is). The most common forms of
    every other item (`PeriodReader.forms`, a lexicon's names) are also looked up as every
    answer check looks up a value (`TextView`), so a look-alike of one is refused as the
    plain form is. A mention to deny an item ("not June") names it all the same.

    ``source`` / ``sql``: as `AnswerMatch` (every non-null value the query selects, read as
    one text). ``expected`` / ``allowed``: items or `Param` references (a list is several).
    ``range_allowed`` (default ``None``: a range competes as any mention does): items a
    *range* (a mention naming several items at once: a quarter, a half, a year) may cover
    beside ``expected`` and ``allowed`` when it covers ``expected``: such a range says what
    holds the item, not another item (``April ... in the Q2 figures``), and as the check
    still needs ``expected`` named exactly, it cannot pass a shotgun. A range covering an
    item outside them (``H1`` holds closed January), or hedged (``April (or Q2)``, ``Q2
    maybe``: a hedge in its clause, `Mention.hedged`), competes still.
    ``others_sql`` (default ``None``: none): a query selecting further texts (as ``sql``)
    that must name no item but ``expected`` and ``allowed`` either, while ``expected``
    named there does not count: the notes on every record the agent wrote, beside the one
    record whose own note must name the item. Each is read alone (no clause runs from one
    note into the next), and their look-alikes are looked up too.
    """

    kind: Literal["mention_match"] = "mention_match"
    source: Literal["submitted", "sql"] = "submitted"
    sql: str | None = None
    others_sql: str | None = None
    reader: Annotated[PeriodReader | Lexicon, Field(discriminator="kind")]
    expected: Value
    allowed: Value = None
    range_allowed: Value = None

    @model_validator(mode="after")
    def _consistent(self) -> MentionMatch:
        if self.source == "sql" and not self.sql:
            raise ValueError(f"check {self.name!r}: source 'sql' needs `sql`")
        if isinstance(self.reader, Lexicon):
            allowed = self.allowed if isinstance(self.allowed, list | tuple) else [self.allowed]
            for value in (self.expected, *allowed):
                if isinstance(value, str) and value not in self.reader.items:
                    raise ValueError(
                        f"check {self.name!r}: {value!r} is no item of the lexicon "
                        f"({sorted(self.reader.items)})"
                    )
        return self


class DecisionMatch(_CheckBase):
    """A text states the decision taken and not the opposite one (`mcpgym_grading._decisions`).

    The decision reader finds where a text claims an action of its closed set as done
    (``Order #7 has been cancelled``, ``Entered and posted bill X``) and where it says the
    action was not done (``it can no longer be cancelled``, ``Not posted``); conditional,
    future and requested forms (``once it is back we'll refund``, ``please approve before
    it is posted``) state neither.

    ``claimed``: actions the text must claim as done (each at least once). ``not_claimed``:
    actions it must not claim as done (the band did not take them). ``not_denied``: actions
    it must not say were not done (the band took them). ``source`` / ``sql``: as
    `AnswerMatch` (every non-null value the query selects, read as one text). ``about``
    (default None: the whole text): a value (a `Param`, an order number); only the
    sentences naming it as a whole number or token are read, where one text states two
    decisions about two records (one order cancelled, the other shipped); a sentence naming
    every record at once (``I've cancelled both orders``, ``all of your orders``) is read
    for its claims, not its denials (``I couldn't cancel both orders`` denies neither).
    ``records`` (default None): a query on the final database selecting ``(action, record)``
    rows, each action the episode took and a record it took it on (an order number, an
    invoice number); then a sentence naming a record of that kind that claims the action
    (done or unsure) of a record it was not taken on is wrong too (``order #8 refunded in
    full too`` in the reason of a refund of order #7: stop 24's A14). Each text the ``sql``
    selects is read on its own, only its sentences naming the record (pieces where they
    name several; no carry-over to the next sentence); actions with no row are not bound
    (`mcpgym_grading._decision_records`).
    """

    kind: Literal["decision_match"] = "decision_match"
    source: Literal["submitted", "sql"] = "submitted"
    sql: str | None = None
    claimed: tuple[str, ...] = ()
    not_claimed: tuple[str, ...] = ()
    not_denied: tuple[str, ...] = ()
    about: Value = None
    records: str | None = None

    @model_validator(mode="after")
    def _known(self) -> DecisionMatch:
        if self.source == "sql" and not self.sql:
            raise ValueError(f"check {self.name!r}: source 'sql' needs `sql`")
        unknown = sorted(
            {a for a in (*self.claimed, *self.not_claimed, *self.not_denied) if a not in ACTIONS}
        )
        if unknown:
            raise ValueError(
                f"check {self.name!r}: unknown action(s) {unknown}; known: {sorted(ACTIONS)}"
            )
        if not (self.claimed or self.not_claimed or self.not_denied):
            raise ValueError(f"check {self.name!r}: names no action")
        return self


Check = Annotated[
    SqlCheck
    | StateMatchesReference
    | NoCollateralChanges
    | ToolCalled
    | ToolNotCalled
    | CalledBefore
    | ToolArgumentsOnly
    | AnswerMatch
    | MentionMatch
    | DecisionMatch,
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
    threshold: float = Field(default=1.0, ge=0, le=1)
    volatile_columns: dict[str, tuple[str, ...]] = Field(default_factory=dict)

    def model_post_init(self, __context: Any) -> None:
        """Refuse duplicate check names (raises ValueError naming them)."""
        names = [c.name for c in self.checks]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"rubric check names must be unique; duplicated: {dupes}")

    def canonical_json(self) -> str:
        """Canonical JSON (sorted keys, no whitespace) of checks, weights and threshold.

        Options at their default that rubrics signed before they existed never had
        (`_DIGEST_DEFAULTS`) are left out, so adding an option does not void sign-offs.
        """
        data = self.model_dump(mode="json")
        for check in data["checks"]:
            for key, default in _DIGEST_DEFAULTS.get(check["kind"], {}).items():
                if key in check and check[key] == default:
                    del check[key]
            for role in check.get("roles") or ():
                for key, default in _DIGEST_ROLE_DEFAULTS.items():
                    if key in role and role[key] == default:
                        del role[key]
            reader = check.get("reader")
            if isinstance(reader, dict) and reader.get("document_dates") == "named":
                del reader["document_dates"]  # PeriodReader's option added after sign-offs
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    def digest(self) -> str:
        """Hex sha256 of `canonical_json`: changes whenever a check, weight or threshold does."""
        return hashlib.sha256(self.canonical_json().encode()).hexdigest()
