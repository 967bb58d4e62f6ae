"""Finding installed environments through the ``mcpgym.environments`` entry-point group.

An environment distribution declares, in its ``pyproject.toml``::

    [project.entry-points."mcpgym.environments"]
    helpdesk = "mcpgym_helpdesk:environment"

Nothing is imported until an environment is asked for by name.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import EntryPoint, entry_points

from mcpgym_server._environment import Environment
from mcpgym_server._errors import EnvironmentDefinitionError, UnknownEnvironmentError

GROUP = "mcpgym.environments"


def _entry_points() -> dict[str, EntryPoint]:
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def available_environments() -> list[str]:
    """Names of the installed environments (no imports happen)."""
    return sorted(_entry_points())


@cache
def load_environment(name: str) -> Environment:
    """Import and return the environment registered under ``name``.

    Raises:
        UnknownEnvironmentError: no installed environment has that name
            (the message lists the installed ones).
        EnvironmentDefinitionError: the entry point does not point at an `Environment`.
    """
    eps = _entry_points()
    if name not in eps:
        raise UnknownEnvironmentError(name, list(eps))
    obj = eps[name].load()
    if not isinstance(obj, Environment):
        raise EnvironmentDefinitionError(
            f"entry point {name!r} ({eps[name].value}) is a {type(obj).__name__}, "
            "not an mcpgym_server.Environment"
        )
    return obj
