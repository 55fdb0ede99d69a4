"""Retrieval benchmarks on LoCoMo and LongMemEval, with baselines in the same run.

    from dualtrace.bench import run_locomo
    report = run_locomo(Path("data/locomo"), ablate=True)   # results/locomo-<time>/report.md

See `runner.py` for the flow, `metrics.py` for what is measured, `baselines.py` for the
methods compared, and `report.py` for what the results folder holds.
"""

from __future__ import annotations

from dualtrace.bench.runner import run_locomo, run_longmemeval

__all__ = ["run_locomo", "run_longmemeval"]
