"""Compare (torch.utils.benchmark): measurements printed as tables, one per label and thread count, rows by
sub_label (or statement), columns by description; medians in one unit for the table."""

from __future__ import annotations

from torch.utils.benchmark.timer import Measurement, select_unit, trim_sigfig

__all__ = ["Compare"]


def _format(value: float, figures: int) -> str:
    """value with the measurement's significant figures, at most one decimal (upstream's cells: '2.4')."""
    value = trim_sigfig(value, figures)
    return f"{value:.1f}" if abs(value) < 100 else f"{value:.0f}"


class Compare:
    """A table of measurements: `print()` or `str(compare)`; `trim_significant_figures()` and `colorize()`
    are accepted (figures are always trimmed to the measurements' own; colors are not drawn)."""

    def __init__(self, results) -> None:
        self._results = []
        self.extend_results(results)

    def extend_results(self, results) -> None:
        """Adds measurements."""
        for r in results:
            if not isinstance(r, Measurement):
                raise ValueError(f"Expected an instance of `Measurement`, got {type(r)} instead.")
        self._results.extend(results)

    def trim_significant_figures(self) -> None:
        """Prints each median with the figures its spread supports (always so here)."""

    def colorize(self, rowwise: bool = False) -> None:
        """Asks for relative coloring (not drawn here)."""

    def highlight_warnings(self) -> None:
        """Marks measurements with a large spread (not drawn here)."""

    def __str__(self) -> str:
        results = Measurement.merge(self._results)
        groups: dict = {}
        for m in results:
            groups.setdefault(m.task_spec.label, []).append(m)
        out = []
        for label, ms in groups.items():
            unit, scale = select_unit(min(m.median for m in ms))
            columns = list(dict.fromkeys(m.task_spec.description or "" for m in ms))
            rows = list(dict.fromkeys((m.task_spec.num_threads, m.task_spec.sub_label or m.task_spec.stmt) for m in ms))
            cell = {
                (m.task_spec.num_threads, m.task_spec.sub_label or m.task_spec.stmt, m.task_spec.description or ""): m
                for m in ms
            }
            row_width = max(len(str(r[1])) for r in rows) + 2
            col_width = max([len(c) for c in columns] + [8]) + 2
            title = f" {label or ''} "
            width = row_width + (col_width + 3) * len(columns)
            out.append(f"[{title.center(width - 2, '-')}]")
            out.append(" " * row_width + "|" + "|".join(c.center(col_width + 2) for c in columns))
            threads = None
            for num_threads, name in rows:
                if num_threads != threads:
                    threads = num_threads
                    out.append(f"{num_threads} threads: ".ljust(width, "-"))
                values = []
                for c in columns:
                    m = cell.get((num_threads, name, c))
                    values.append(_format(m.median / scale, m.significant_figures) if m else "")
                out.append(f"{str(name).rjust(row_width - 2)}  |" + "|".join(v.center(col_width + 2) for v in values))
            out.append("")
            english = {"ns": "nanoseconds", "us": "microseconds", "ms": "milliseconds", "s": "seconds"}[unit]
            out.append(f"Times are in {english} ({unit}).")
            out.append("")
        return "\n".join(out)

    def print(self) -> None:
        """Prints the tables."""
        print(str(self))
