"""Load a lab's harness from an ``--agent`` spec (``package.module:attr`` or ``file.py:attr``).

``attr`` may be dotted (``module:Class.factory``). `load_agent` accepts an `Agent` subclass
(instantiated without arguments), an `Agent` instance, an async function (the function form,
wrapped in `FunctionAgent`), or a factory: a plain function without required arguments
returning any of these. Modules are found where Python finds them, plus the working directory
(like uvicorn's ``--app-dir``); a file's own folder is importable while it loads, as with
``python file.py``. Every failure is a `HarnessLoadError` whose one-line message names the fix.

The loaded agent's settings record ``harness``, the spec with a file's path resolved
(``./x.py:agent`` and ``x.py:agent`` are the same harness), and ``harness_digest``, the
SHA-256 of the file's (or module's) source: runs resume only with the same settings, so
an edited harness starts a new run instead of resuming one measured with the old code.
"""

from __future__ import annotations

import difflib
import hashlib
import importlib
import importlib.util
import inspect
import sys
from pathlib import Path
from typing import Any

from mcpgym_clients.errors import HarnessLoadError
from mcpgym_clients.harness import FunctionAgent, GuardedAgent, is_async_callable, where
from mcpgym_clients.protocol import Agent


def is_agent_spec(text: str) -> bool:
    """Whether ``--agent text`` names a lab's harness (``module:attr`` or ``file.py[:attr]``)
    rather than a built-in agent name."""
    return ":" in text or text.endswith(".py") or "/" in text or "\\" in text


MODEL_VENDORS = frozenset(
    {"openai", "openai-responses", "openai-compatible", "anthropic", "gemini", "google"}
)
"""``VENDOR`` of ``--model VENDOR:MODEL``: an ``--agent`` spec starting so was meant for it."""

SPEC_FORMS = "package.module:attr or path/to/file.py:attr"
"""How ``--agent`` names a lab's harness, as error messages say it."""


def _import_file(spec: str, path_text: str) -> Any:
    path = Path(path_text).expanduser()
    if not path.is_file():
        raise HarnessLoadError(
            spec, f"file {path_text!r} not found; give an existing file as path/to/file.py:attr"
        )
    name = f"mcpgym_harness_{path.stem}_{abs(hash(str(path.resolve()))):x}"
    module_spec = importlib.util.spec_from_file_location(name, path)
    if module_spec is None or module_spec.loader is None:
        raise HarnessLoadError(spec, f"{path_text!r} is not a Python file; give path/to/file.py")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module  # dataclasses and pickling look their module up here
    folder = str(path.resolve().parent)
    if folder not in sys.path:  # like `python file.py`: the file's own folder is importable
        sys.path.insert(0, folder)
    try:
        module_spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[name]
        raise _import_failed(spec, path_text, exc) from None
    return module


def _import_failed(spec: str, what: str, exc: Exception) -> HarnessLoadError:
    if isinstance(exc, ModuleNotFoundError):
        return HarnessLoadError(
            spec,
            f"importing {what!r} failed: it imports {exc.name!r}, which is not installed; "
            f"install it in this environment (uv add {exc.name} / pip install {exc.name})",
        )
    return HarnessLoadError(
        spec,
        f"importing {what!r} raised {type(exc).__name__}: {exc}{where(exc)}; fix the module",
    )


def _import_module(spec: str, module_name: str) -> Any:
    cwd = str(Path.cwd())
    if cwd not in sys.path and "" not in sys.path:  # like uvicorn's --app-dir: modules of
        sys.path.insert(0, cwd)  # the working directory import without installing them
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = exc.name or ""
        if missing == module_name or module_name.startswith(missing + "."):
            raise HarnessLoadError(
                spec,
                f"module {module_name!r} not found; install its package in this environment, "
                f"run from the folder that holds it, or give a file: path/to/file.py:attr",
            ) from None
        raise _import_failed(spec, module_name, exc) from None
    except Exception as exc:
        raise _import_failed(spec, module_name, exc) from None


def _attribute(spec: str, module: Any, where: str, attr: str) -> Any:
    obj = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            names = [n for n in dir(obj) if not n.startswith("_")]
            close = difflib.get_close_matches(part, names, n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise HarnessLoadError(spec, f"{where} has no attribute {attr!r}{hint}")
        obj = getattr(obj, part)
    return obj


EXPECTED = (
    "an Agent subclass or instance, an async function `async def loop(task)`, "
    "or a factory function without arguments returning one"
)


def source_digest(module: Any) -> str | None:
    """``sha256:<hex>`` of the source file of a module, or ``None`` when it has none."""
    path = getattr(module, "__file__", None)
    if not path:
        return None
    try:
        return "sha256:" + hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def _wrap(
    spec: str,
    label: str,
    obj: object,
    *,
    factory_ok: bool = True,
    record: str | None = None,
    digest: str | None = None,
) -> Agent:
    # `spec` names the harness in messages; `record` (default: spec) is stored in settings
    record = record or spec
    if isinstance(obj, FunctionAgent):
        obj._settings.setdefault("harness", record)  # noqa: SLF001 (same module)
        if digest:
            obj._settings.setdefault("harness_digest", digest)  # noqa: SLF001
        return obj
    if isinstance(obj, GuardedAgent):
        obj.spec = obj.spec or record
        obj.digest = obj.digest or digest
        return obj
    if isinstance(obj, Agent):
        return GuardedAgent(obj, record, digest)
    if inspect.isclass(obj):
        if not issubclass(obj, Agent):
            raise HarnessLoadError(
                spec,
                f"{label} is the class {obj.__name__}, not an Agent subclass; expected {EXPECTED}",
            )
        try:
            instance = obj()
        except TypeError as exc:
            raise HarnessLoadError(
                spec,
                f"{label}: {obj.__name__}() failed ({exc}); give its constructor defaults, "
                "or point --agent at an instance or a factory",
            ) from None
        return GuardedAgent(instance, record, digest)
    if is_async_callable(obj):
        settings = {"harness": record, **({"harness_digest": digest} if digest else {})}
        return FunctionAgent(obj, settings=settings)  # type: ignore[arg-type]
    if callable(obj) and factory_ok:
        try:
            required = [
                p
                for p in inspect.signature(obj).parameters.values()
                if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
            ]
        except (TypeError, ValueError):
            required = []
        if required:
            raise HarnessLoadError(
                spec,
                f"{label} is a plain function taking {required[0].name!r}; a loop must be "
                f"defined with `async def`, and a factory must take no arguments",
            )
        try:
            made = obj()
        except Exception as exc:
            raise HarnessLoadError(
                spec, f"the factory {label} raised {type(exc).__name__}: {exc}{where(exc)}"
            ) from None
        return _wrap(
            spec, f"what {label}() returned", made, factory_ok=False, record=record, digest=digest
        )
    raise HarnessLoadError(
        spec, f"{label} is {type(obj).__name__}, not an agent; expected {EXPECTED}"
    )


def load_agent(spec: str) -> Agent:
    """Load a lab's harness from ``package.module:attr`` or ``path/to/file.py:attr``.

    The attribute may be an `Agent` subclass (instantiated without arguments), an `Agent`
    instance, an async function (wrapped in `FunctionAgent`) or a factory without required
    arguments returning one of these. Class-form agents are wrapped in `GuardedAgent`, so
    an exception in any form is recorded on the episode instead of stopping the campaign.

    Returns:
        An `Agent` ready for `EpisodeDriver.run_episode` / `run_campaign`; its settings
        hold ``harness`` (the spec, a file's path resolved) and ``harness_digest``
        (``sha256:<hex>`` of the file's or module's source).

    Raises:
        HarnessLoadError: a one-line message: no ``:attr``, file or module not found, the
            module failed to import, no such attribute (with close matches), or an object
            of the wrong type; each names the fix.
    """
    target, sep, attr = spec.rpartition(":")
    if not sep or not target or not attr or "/" in attr or "\\" in attr:
        raise HarnessLoadError(
            spec,
            f"--agent {spec!r} names no attribute; give {SPEC_FORMS}, e.g. "
            "examples/own_harness.py:agent",
        )
    if target in MODEL_VENDORS:
        raise HarnessLoadError(
            spec, f"--agent {spec!r} names a model, not a harness; run it with --model {spec}"
        )
    if target.endswith(".py") or "/" in target or "\\" in target:
        module = _import_file(spec, target)
        where = f"file {target!r}"
        record = f"{Path(target).expanduser().resolve()}:{attr}"
    else:
        module = _import_module(spec, target)
        where = f"module {target!r}"
        record = spec
    obj = _attribute(spec, module, where, attr)
    return _wrap(spec, f"{target}:{attr}", obj, record=record, digest=source_digest(module))
