"""The curated public surface of mcpgym_clients, and its docstrings."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import mcpgym_clients


def test_all_lists_every_exported_name_once_sorted() -> None:
    names = mcpgym_clients.__all__
    assert names == sorted(names, key=lambda n: (not n[0].isupper(), n))
    assert len(set(names)) == len(names)
    for name in names:
        assert getattr(mcpgym_clients, name) is not None


def test_public_functions_classes_and_methods_have_docstrings() -> None:
    missing: list[str] = []
    modules = [
        importlib.import_module(m.name)
        for m in pkgutil.walk_packages(mcpgym_clients.__path__, "mcpgym_clients.")
    ]
    for module in [mcpgym_clients, *modules]:
        if not inspect.getdoc(module):
            missing.append(module.__name__)
        for name, obj in vars(module).items():
            if name.startswith("_") or getattr(obj, "__module__", None) != module.__name__:
                continue
            if inspect.isfunction(obj) and not obj.__doc__:
                missing.append(f"{module.__name__}.{name}")
            if inspect.isclass(obj):
                if not obj.__doc__:
                    missing.append(f"{module.__name__}.{name}")
                for attr, member in vars(obj).items():
                    if (
                        not attr.startswith("_")
                        and inspect.isfunction(member)
                        and not member.__doc__
                    ):
                        missing.append(f"{module.__name__}.{name}.{attr}")
    assert missing == []
