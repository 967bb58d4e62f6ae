"""Parsing of command-line selections: ``--seeds 0-4``, ``--tasks a,b``, ``--bands all``."""

from __future__ import annotations

from mcpgym_clients.errors import ConfigurationError

MAX_SEEDS = 100_000
"""Most seeds one selection may name."""

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
        ConfigurationError: the list is empty.
    """
    if text.strip().lower() == "all":
        return None
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise ConfigurationError("empty list; give comma-separated names or `all`")
    return list(dict.fromkeys(names))
