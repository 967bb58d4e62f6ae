"""Selections: parsing ``--seeds 0-4``, ``--tasks a,b``, ``--bands all``, and the task variants
they name (`VariantKey`, `select_variants`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from mcpgym_clients.errors import ConfigurationError, UsageError
from mcpgym_clients.records import ServerInfo
from mcpgym_server import BANDS, did_you_mean

MAX_SEEDS = 100_000
"""Most seeds one selection may name."""

MAX_PLANNED_EPISODES = 1_000_000
"""Most episodes one run may plan (variants x epochs). The plan is held in memory (a
few hundred bytes an episode, more while it is stored and summarised): ``--epochs
100000000`` on one variant grew ``mcpgym eval`` past 5 GB in 45 s before its first episode
(adversarial round 15, S1-11). A million episodes is days of work on one server; split a
larger campaign into runs. `select_variants` refuses a selection of more variants,
`check_planned` (``mcpgym eval`` before its servers start, and
`mcpgym_clients.run_campaign`) more variants x epochs plus the null baseline's episodes."""


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def check_planned(variants: int, epochs: int, *, baseline: bool) -> int:
    """The episodes a campaign plans: ``variants x epochs``, plus one per variant for the
    null baseline when ``baseline``; return it.

    Raises:
        ConfigurationError: more than `MAX_PLANNED_EPISODES` (the message says how many,
            and of what).
    """
    total = variants * epochs + (variants if baseline else 0)
    if total > MAX_PLANNED_EPISODES:
        what = f"{_plural(variants, 'variant')} x {_plural(epochs, 'epoch')}"
        if baseline:
            what += f" + {variants:,} of the null baseline"
        fewer = "seeds, tasks, bands or epochs" + (" (or --no-baseline)" if baseline else "")
        raise ConfigurationError(
            f"the campaign plans {total:,} episodes ({what}); one campaign plans at most "
            f"{MAX_PLANNED_EPISODES:,}: select fewer {fewer}, and run the rest as another "
            "campaign"
        )
    return total


MAX_SEED = 2**63 - 1
"""Largest seed (the environment server refuses larger ones too)."""


def parse_seeds(text: str) -> list[int]:
    """Parse a seed list: ``"3"``, ``"0-4"`` (inclusive), ``"0,1,2"`` or a mix ``"0-2,7"``.

    Returns:
        The seeds in the order given, without duplicates.

    Raises:
        ConfigurationError: empty items, non-integers, negative seeds, a range whose end
            is below its start, or more than `MAX_SEEDS` seeds.
    """
    seeds: list[int] = []
    seen: set[int] = set()
    for item in text.split(","):
        item = item.strip()
        if not item:
            raise ConfigurationError(f"empty item in {text!r}; use e.g. 0-4 or 0,1,2")
        lo_text, sep, hi_text = item.partition("-")
        try:
            lo = int(lo_text)
            hi = int(hi_text) if sep else lo
        except ValueError:
            raise ConfigurationError(
                f"{item!r} is not a seed or a seed range; use e.g. 0-4 or 0,1,2"
            ) from None
        if lo < 0 or hi < 0:
            raise ConfigurationError(f"seeds must be non-negative, got {item!r}")
        if hi > MAX_SEED:
            raise ConfigurationError(f"seeds must be at most {MAX_SEED}, got {item!r}")
        if hi < lo:
            raise ConfigurationError(f"range {item!r} ends before it starts")
        if hi - lo + len(seeds) >= MAX_SEEDS:
            raise ConfigurationError(f"too many seeds (the limit is {MAX_SEEDS})")
        for seed in range(lo, hi + 1):
            if seed not in seen:
                seen.add(seed)
                seeds.append(seed)
    return seeds


def parse_names(text: str) -> list[str] | None:
    """Parse a comma-separated name list; ``"all"`` gives ``None`` (meaning every name).

    Raises:
        ConfigurationError: the list is empty, has an empty item (``a,,b``, ``a,``), or
            names ``all`` beside other names (``all`` stands alone).
    """
    if text.strip().lower() == "all":
        return None
    items = [n.strip() for n in text.split(",")]
    if not any(items):
        raise ConfigurationError("empty list; give comma-separated names or `all`")
    if not all(items):
        raise ConfigurationError(f"empty item in {text!r}; give e.g. a,b or `all`")
    if any(n.lower() == "all" for n in items):
        raise ConfigurationError(f"`all` stands alone: {text!r} lists names beside it")
    return list(dict.fromkeys(items))


@dataclass(frozen=True, order=True)
class VariantKey:
    """One task variant to run: family, band and seed."""

    task: str
    band: str
    seed: int


def select_variants(
    info: ServerInfo,
    tasks: Sequence[str] | None,
    bands: Sequence[str] | None,
    seeds: Sequence[int],
) -> list[VariantKey]:
    """The variants of a selection, families in server order, then bands, then seeds.

    Args:
        info: the served environment. tasks: family names (``None``: all).
        bands: band names (``None``: every band each family offers); a family is run
            only in the named bands it offers. seeds: variant seeds.

    Raises:
        ConfigurationError: an unknown family, a band no selected family offers, no
            seeds, an empty selection, or more than `MAX_PLANNED_EPISODES` variants.
    """
    if not seeds:
        raise ConfigurationError("no seeds selected")
    families = [info.task(t) for t in tasks] if tasks is not None else list(info.tasks)
    if bands is not None:
        offered = _ordered_bands(b for f in families for b in f.bands)
        missing = [b for b in bands if b not in offered]
        if missing:
            scope = info.env if tasks is None else f"the selected tasks ({', '.join(tasks)})"
            raise UsageError(
                f"band {missing[0]!r} is not offered by {scope}"
                f"{did_you_mean(missing[0], offered)}; offered bands: {', '.join(offered)}"
            )
    count = len(seeds) * sum(1 for f in families for b in f.bands if bands is None or b in bands)
    if count > MAX_PLANNED_EPISODES:  # before building them (28 x 100,000 seeds: ~1.3 GB)
        raise ConfigurationError(
            f"the selection names {count:,} variants; one run holds at most "
            f"{MAX_PLANNED_EPISODES:,} episodes: select fewer seeds, tasks or bands"
        )
    keys = [
        VariantKey(f.name, band, seed)
        for f in families
        for band in f.bands
        if bands is None or band in bands
        for seed in seeds
    ]
    if not keys:
        raise ConfigurationError("the selection contains no task variants")
    return keys


def _ordered_bands(bands: Iterable[str]) -> list[str]:
    """Distinct band names, easiest first (names outside `BANDS` last, in given order)."""
    distinct = list(dict.fromkeys(bands))
    return [b for b in BANDS if b in distinct] + [b for b in distinct if b not in BANDS]
