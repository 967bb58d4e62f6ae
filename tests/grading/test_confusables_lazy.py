"""The confusables tables are built on first use, not when ``mcpgym_grading`` is imported
(about 0.3 s of every process that imports the grading package, a child server or a
worker included), and read the same either way."""

from __future__ import annotations

import subprocess
import sys

from mcpgym_grading import _confusables, _skeleton


def test_importing_the_grading_package_builds_no_confusables_table() -> None:
    probe = (
        "import mcpgym_grading, mcpgym_grading.engine, mcpgym_grading.service\n"
        "from mcpgym_grading import _confusables\n"
        "print(sorted(n for n in ('SKELETON', 'READINGS', 'CONFUSABLES', 'DIGIT_LOOKALIKES')"
        " if n in vars(_confusables)), getattr(_confusables, 'tables', None) is not None"
        " and _confusables.tables.cache_info().currsize)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    assert out.split() == ["[]", "0"], out


def test_the_former_constants_are_the_tables_built_on_first_use() -> None:
    built = _confusables.tables()
    assert _confusables.tables() is built  # once
    assert _confusables.SKELETON is built.skeleton
    assert _confusables.READINGS is built.readings
    assert _confusables.CONFUSABLES is built.confusables is _skeleton.CONFUSABLES
    assert _confusables.DIGIT_LOOKALIKES is built.digit_lookalikes
    assert (
        built.confusables[ord("\u043f")] == "n" and built.digit_lookalikes[ord("З".lower())] == "3"
    )
