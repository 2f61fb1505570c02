"""Differential fuzz of `torch` against upstream PyTorch (issue 15; DESIGN.md §7).

`python -m tools.fuzz --calls N --seed S --reference /path/to/upstream/python` generates N seeded random
calls as Python source text (`generate.py`, one module per op family), runs each in a forked child of a
worker process per library (`worker.py`: a crash or hang is caught and the batch resumes after it),
compares the outcomes (`compare.py`), and writes a summary table and a JSONL of every finding
(`report.py`), with a shortened reproducer where cheap (`minimize.py`). Findings listed in `known.txt`
(each with a reason) do not fail the run; a crash or hang of ours always does.

Call `i` of seed `S` is a pure function of `(S, i)`: `python -m tools.fuzz --show S:i` prints it.

`--opinfo` runs upstream's own test inputs instead of a seed: `opinfo_calls.py`, run once under the reference
Python, writes every sample input of its OpInfo database (~60,000 calls over ~600 ops and six dtypes) as
source text, cached in build/fuzz/; `--ops 'linalg.*'` picks entries by name.
"""
