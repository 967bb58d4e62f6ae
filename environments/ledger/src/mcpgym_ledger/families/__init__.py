"""The ledger task families; importing this package registers them with the environment.

One module per family (generator, rubric, registration); shared pieces live in `_common`.
"""
