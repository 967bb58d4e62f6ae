"""The ``mcpgym`` commands beyond serve/tasks/eval/demo, one module per area.

Each module has ``register(app)``, called by `mcpgym_clients.cli`, which adds its
commands to the ``mcpgym`` Typer app.
"""
