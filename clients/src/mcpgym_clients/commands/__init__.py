"""The ``mcpgym`` commands, one module per area (the way Inspect AI splits its CLI).

Each public module (``serve``, ``grading``, ``tasks``, ``evaluate``, ``instrument``,
``new``, ``measure``, ``report``) has ``register(app)``, called by `mcpgym_clients.cli`,
which adds its commands to the ``mcpgym`` Typer app. The private modules hold what
several commands share: ``_common`` (one-line errors, plain output), ``_options`` (help
texts and defaults), ``_agent`` (the agent ``--agent``/``--model`` name), ``_help``.
The work itself is in the library (e.g. `mcpgym_clients.evaluation`).
"""
