"""The adversarial mutant (`Adversary`) and the builders of its calls: the answer fields of a
reference, a field's text with values added, replaced, split or taken out, in each look-alike
form (moved out of `mcpgym_clients.instrument.adversarial`, which re-exports `Adversary`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from mcpgym_clients.instrument.controls import BLAND_TEXT, Call
from mcpgym_clients.instrument.flip import flips
from mcpgym_clients.instrument.forms import FORMS, groups
from mcpgym_server import SUBMIT_TOOL, Environment, TaskVariant

MIN_TEXT = 20
"""Free-text arguments at least this long are answer fields (as for ``blank-text``)."""


@dataclass(frozen=True)
class Adversary:
    """One adversarial mutant: its calls and what the gate compares it with.

    Attributes:
        label: ``stuff-3``, ``stuff-3~em-dash``, ``leak-3~fullwidth``... group: the field it
            changes (``3``, or ``submit``; an undo mutant's own label). role: ``blank``,
            ``stuff``, ``amounts`` or ``leak`` (a plain form), ``undo``, ``swap``,
            ``second``, or a form name. base: for a form, the label of the plain mutant
            with the same values (the one it must grade like). values: what it adds (an
            undo mutant: the arguments it changed; a swap: its kind and the two values; a
            second record: ``id_key=N`` and the first near misses).
    """

    label: str
    calls: list[Call]
    group: str
    role: str
    base: str = ""
    values: tuple[str, ...] = ()


def _fields(body: Sequence[Call], env: Environment, answer: str | None) -> list[tuple[str, int]]:
    """``(group, index)`` of each answer field: a write call with free text, and submit."""
    out: list[tuple[str, int]] = []
    for i, (name, args) in enumerate(body):
        spec = env.tools.get(name)
        if spec is None or spec.kind != "write":
            continue
        if any(isinstance(v, str) and len(v) >= MIN_TEXT for v in args.values()):
            out.append((str(i + 1), i))
    if answer is not None:
        out.append(("submit", len(body)))
    return out


def _with_forms(
    group: str,
    role: str,
    values: list[str],
    forms: Sequence[str],
    calls_of: Callable[..., list[Call]],
    *,
    split: bool,
) -> list[Adversary]:
    label = f"{role}-{group}"
    out = [Adversary(label, calls_of(values), group, role, values=tuple(values))]
    plain_of: dict[tuple[str, ...], str] = {tuple(values): label}
    for form in forms:
        fn = FORMS[form]
        pairs = [(v, fn(v)) for v in values]
        kept = tuple(v for v, f in pairs if f is not None)
        if not kept:
            continue
        if kept not in plain_of:  # the plain mutant with exactly these values
            plain_of[kept] = f"{label}@{len(plain_of)}"
            out.append(Adversary(plain_of[kept], calls_of(list(kept)), group, role, values=kept))
        shown = [f for _, f in pairs if f is not None]
        out.append(Adversary(f"{label}~{form}", calls_of(shown), group, form, plain_of[kept], kept))
    if split and len(values) >= 1:
        out.append(
            Adversary(
                f"{label}~split", calls_of(values, split=True), group, "split", label, tuple(values)
            )
        )
    return out


def _call_builder(body: Sequence[Call], submit: Call, i: int) -> Callable[..., list[Call]]:
    name, args = body[i]
    key = _text_key(args)

    def calls_of(
        values: list[str], *, replace: bool = False, split: bool = False, omit: str = ""
    ) -> list[Call]:
        if omit:
            changed = [(name, {**args, key: _without(str(args[key]), omit)})]
        elif replace:
            changed = [
                (
                    name,
                    {
                        **args,
                        **{
                            k: BLAND_TEXT
                            for k, v in args.items()
                            if isinstance(v, str) and len(v) >= MIN_TEXT
                        },
                    },
                )
            ]
        elif split:
            # the list spread over consecutive calls, each value cut between two of them
            # (digit groups only: a cut word or amount is no longer the same value)
            texts = [f"{args[key]}\n\n"]
            for v in values:
                h = 4 * (len(v) // 8) if groups(v, " ") is not None else 0
                if h:
                    texts[-1] += v[:h]
                    texts.append(v[h:] + ", ")
                else:
                    texts.append(v + ", ")
            changed = [(name, {**args, key: t}) for t in texts]
        else:
            changed = [(name, {**args, key: f"{args[key]}\n\n{', '.join(values)}."})]
        return [*body[:i], *changed, *body[i + 1 :], submit]

    return calls_of


def _flipped(
    env: Environment, variant: TaskVariant, body: Sequence[Call], submit: Call, i: int, group: str
) -> list[Adversary]:
    """``flip-i-from-B``: field ``i`` with band ``B``'s text of it (`flip.flips`)."""
    name, args = body[i]
    key = _text_key(args)
    return [
        Adversary(
            f"flip-{group}-from-{band}",
            [*body[:i], (name, {**args, key: text}), *body[i + 1 :], submit],
            group,
            "flip",
            values=(band,),
        )
        for band, text in flips(env, variant, body, i, key)
    ]


def _text_key(args: dict[str, Any]) -> str:
    """The longest free-text argument (the answer field of a write call)."""
    return max(
        (k for k, v in args.items() if isinstance(v, str) and len(v) >= MIN_TEXT),
        key=lambda k: len(str(args[k])),
    )


def _without(text: str, value: str) -> str:
    """``text`` with every whole-word ``value`` (any case) taken out, ``(blank)`` in its
    place: a word no reader takes for a negation (``(not said)`` read as a denial to the
    decision reader, so a decision check seemed to read the value)."""
    return re.sub(r"(?<![^\W_])" + re.escape(value) + r"(?![^\W_])", "(blank)", text, flags=re.I)


def _submit_builder(body: Sequence[Call], answer: str) -> Callable[..., list[Call]]:
    def calls_of(
        values: list[str], *, replace: bool = False, split: bool = False, omit: str = ""
    ) -> list[Call]:
        if omit:
            return [*body, (SUBMIT_TOOL, {"answer": _without(answer, omit)})]
        text = BLAND_TEXT if replace else f"{answer}\n\n{', '.join(values)}."
        return [*body, (SUBMIT_TOOL, {"answer": text})]

    return calls_of
