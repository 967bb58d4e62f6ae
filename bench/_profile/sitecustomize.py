"""Bench-only start-up hook (on ``PYTHONPATH`` for bench/campaign_profile.py): with
``MCPGYM_BENCH_PROFILE=DIR`` every Python process started with it (the bench and its
child servers) runs a `cProfile.Profile` timed by thread CPU time (`time.thread_time`)
in each of its threads, so waiting threads cost nothing and one thread's work is never
charged to another. ``SIGUSR1`` clears every thread's figures (the warm-up left out);
``SIGUSR2`` writes them, merged, to ``DIR/<pid>.prof`` (read with `pstats`). Nothing else
changes."""

import os

if os.environ.get("MCPGYM_BENCH_PROFILE"):
    from _profile_hook import install  # beside this file

    install(os.environ["MCPGYM_BENCH_PROFILE"])
