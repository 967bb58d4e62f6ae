"""mcpgym-grading: rubrics, the check engine over sealed episode bundles, the grading service.

Environment authors write a `Rubric` of checks (`SqlCheck`, `StateMatchesReference`,
`NoCollateralChanges`, `ToolCalled`, `ToolNotCalled`, `CalledBefore`, `AnswerMatch`,
`MentionMatch`) with `Param` references to variant parameters. Harnesses grade a sealed bundle with
`grade_bundle` in process, or over HTTP with the service from `create_app`, and
summarise grades with `summarize_grades`. `fold` and `TextView` are the one canonical text form
every answer check reads (fullwidth, dashes, spaces, split digits, spelled-out separators).
The author kit (`mcpgym_grading.kit`) builds the
check bundles that recur: `reply_sent`, `reply_says`, `disclosure_forbidden`, `texts_reveal_none`,
`claims_only_taken`, `states_decision` (`DECISION_ACTIONS`), `record_state`, `rows_untouched`,
`nothing_else_changed`, `money_moved_only_as_allowed`, `amounts_stated`.
"""

from mcpgym_grading._periods import PeriodReader
from mcpgym_grading._reference import ReferenceCache
from mcpgym_grading._roles import AmountRole
from mcpgym_grading._statepages import StateConnection
from mcpgym_grading._terms import Lexicon, LexiconItem
from mcpgym_grading._text import TextView, fold
from mcpgym_grading._values import register_sql_functions
from mcpgym_grading.engine import grade_bundle
from mcpgym_grading.errors import (
    BundleMismatchError,
    CheckEvaluationError,
    GradingError,
    LockMismatchError,
)
from mcpgym_grading.grade import CheckResult, Grade, GradeStatus
from mcpgym_grading.kit import (
    DECISION_ACTIONS,
    TEXT_AMOUNTS,
    amounts_stated,
    claims_only_taken,
    disclosure_forbidden,
    money_moved_only_as_allowed,
    nothing_else_changed,
    record_state,
    reply_says,
    reply_sent,
    rows_untouched,
    rows_written_sum,
    secret_email_parts_sql,
    sql_in_list,
    states_decision,
    texts_reveal_none,
    texts_state_no_other_amount,
    with_text_amounts,
)
from mcpgym_grading.metrics import GradeStats, GroupStats, Summary, stats, summarize_grades
from mcpgym_grading.rubric import (
    AnswerMatch,
    CalledBefore,
    Check,
    DecisionMatch,
    MentionMatch,
    NoCollateralChanges,
    Param,
    Rubric,
    SqlCheck,
    StateMatchesReference,
    ToolArgumentsOnly,
    ToolCalled,
    ToolNotCalled,
)
from mcpgym_grading.service import create_app

__all__ = [
    "AmountRole",
    "AnswerMatch",
    "BundleMismatchError",
    "CalledBefore",
    "Check",
    "CheckEvaluationError",
    "CheckResult",
    "DECISION_ACTIONS",
    "DecisionMatch",
    "Grade",
    "GradeStats",
    "GradeStatus",
    "GradingError",
    "GroupStats",
    "Lexicon",
    "LexiconItem",
    "LockMismatchError",
    "MentionMatch",
    "NoCollateralChanges",
    "Param",
    "PeriodReader",
    "ReferenceCache",
    "Rubric",
    "SqlCheck",
    "StateConnection",
    "StateMatchesReference",
    "Summary",
    "TEXT_AMOUNTS",
    "TextView",
    "ToolArgumentsOnly",
    "ToolCalled",
    "ToolNotCalled",
    "amounts_stated",
    "claims_only_taken",
    "create_app",
    "disclosure_forbidden",
    "fold",
    "grade_bundle",
    "money_moved_only_as_allowed",
    "nothing_else_changed",
    "record_state",
    "register_sql_functions",
    "reply_says",
    "reply_sent",
    "rows_untouched",
    "rows_written_sum",
    "secret_email_parts_sql",
    "sql_in_list",
    "states_decision",
    "stats",
    "summarize_grades",
    "texts_reveal_none",
    "texts_state_no_other_amount",
    "with_text_amounts",
]
