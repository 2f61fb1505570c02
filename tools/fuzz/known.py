"""Known divergences (`known.txt`): findings that do not fail a run, each listed with its reason.

One entry a line: `CATEGORY OP SIG CAUSE -- REASON`, four fnmatch patterns matched against a finding's
category, op, signature and cause (`*` for any; see report.cause: the signal, the exception class, or
the first operand's dtype); `#` starts a comment. A crash or hang of ours can be
listed (its reason shows in the report) but still fails the run: the no-crash contract has no exceptions.
"""

from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

DEFAULT = Path(__file__).resolve().parent / "known.txt"


@dataclass(frozen=True)
class Known:
    """One known-divergence entry."""

    category: str
    op: str
    sig: str
    cause: str
    reason: str
    line: int

    def matches(self, category: str, op: str, sig: str, cause: str) -> bool:
        """Whether a finding of this category, op, signature and cause is this entry's."""
        pairs = ((category, self.category), (op, self.op), (sig, self.sig), (cause, self.cause))
        return all(fnmatchcase(value, pattern) for value, pattern in pairs)


def load(path: Path | str | None = DEFAULT) -> list[Known]:
    """Parses a known-divergences file (an entry without a reason is an error)."""
    if path is None or not Path(path).exists():
        return []
    out = []
    for n, raw in enumerate(Path(path).read_text().splitlines(), 1):
        line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
        if not line:
            continue
        head, sep, reason = line.partition(" -- ")
        fields = head.split()
        if not sep or not reason.strip() or len(fields) != 4:
            raise ValueError(f"{path}:{n}: want 'CATEGORY OP SIG CAUSE -- REASON', got {raw!r}")
        out.append(Known(*fields, reason.strip(), n))
    return out


def lookup(known: list[Known], category: str, op: str, sig: str, cause: str) -> Known | None:
    """The first entry matching a finding, if any."""
    for k in known:
        if k.matches(category, op, sig, cause):
            return k
    return None
