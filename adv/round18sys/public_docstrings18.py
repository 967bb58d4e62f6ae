"""Public names without a docstring, over every public module of the five distributions.

Walks every module whose dotted name has no part starting with ``_``, and in each the classes
and functions it defines (its ``__all__`` where it has one), with their public methods and
properties; prints the modules and names without a docstring (none on 6df73e1).

    uv run python adv/round18sys/public_docstrings18.py
"""

import importlib
import inspect
import pkgutil

ROOTS = ["mcpgym_server", "mcpgym_grading", "mcpgym_clients", "mcpgym_helpdesk", "mcpgym_ledger"]


def public(name):
    return not any(part.startswith("_") for part in name.split("."))


missing, bare_modules = [], []
for root in ROOTS:
    pkg = importlib.import_module(root)
    names = [root] + [
        m.name for m in pkgutil.walk_packages(pkg.__path__, root + ".") if public(m.name)
    ]
    for mn in names:
        try:
            mod = importlib.import_module(mn)
        except Exception as exc:  # an optional extra (train, ray) not installed
            print("not imported:", mn, type(exc).__name__, str(exc)[:100])
            continue
        if not (mod.__doc__ or "").strip():
            bare_modules.append(mn)
        for n, obj in vars(mod).items():
            if n.startswith("_") or getattr(obj, "__module__", None) != mn:
                continue
            if hasattr(mod, "__all__") and n not in mod.__all__:
                continue
            if not (inspect.isclass(obj) or inspect.isfunction(obj)):
                continue
            if not (obj.__doc__ or "").strip():
                missing.append(f"{mn}.{n}")
            if inspect.isclass(obj):
                for an, av in vars(obj).items():
                    if an.startswith("_"):
                        continue
                    f = av.fget if isinstance(av, property) else getattr(av, "__func__", av)
                    if (inspect.isfunction(f) or isinstance(av, property)) and not (
                        f.__doc__ or ""
                    ).strip():
                        missing.append(f"{mn}.{n}.{an}")
print("modules without a docstring:", bare_modules or "none")
print("public names without a docstring:", len(missing))
for m in missing:
    print(" ", m)
