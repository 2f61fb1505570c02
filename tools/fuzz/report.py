"""Findings: counting, grouping by (category, op, cause), the summary table and the JSONL files."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from . import compare
from .call import Call
from .known import Known, lookup


def cause(category: str, call: Call, ours: tuple, ref: tuple) -> str:
    """What distinguishes findings of one op: the signal, the exception classes, or the first operand's
    dtype for a value-level divergence."""
    if category in ("crash", "hang"):
        return str(ours[1]) if category == "crash" else "timeout"
    if category in ("ref-crash", "ref-hang"):
        return str(ref[1]) if category == "ref-crash" else "timeout"
    if category == "raise-ours":
        return ours[1]
    if category == "raise-ref":
        return ref[1]
    if category == "exc-class":
        return f"{ours[1]}/{ref[1]}"
    return call.sig.split(",")[0].split("<-")[0].split("->")[0]


@dataclass
class Finding:
    """A call whose outcomes differ (or that crashed/hung)."""

    call: Call
    category: str
    detail: str
    ours: tuple
    ref: tuple
    known: Known | None = None

    @property
    def cause(self) -> str:
        return cause(self.category, self.call, self.ours, self.ref)

    @property
    def severity(self) -> int:
        return compare.severity(self.category)

    def to_json(self) -> dict:
        """One JSONL record."""
        d = self.call.to_json()
        d.update(category=self.category, severity=self.severity, cause=self.cause, detail=self.detail)
        d.update(ours=compare.summarize(self.ours, 400), upstream=compare.summarize(self.ref, 400))
        if self.ours[0] == "crash":
            d["stderr"] = self.ours[2]
            d["isolation"] = self.ours[3]
        d["known"] = self.known.reason if self.known else None
        return d


@dataclass
class Group:
    """Findings of one (category, op, cause), shortest reproducer first."""

    category: str
    op: str
    cause: str
    findings: list[Finding]
    minimized: tuple[str, tuple, tuple] | None = None  # source, ours, upstream

    @property
    def severity(self) -> int:
        return compare.severity(self.category)

    @property
    def repro(self) -> Finding:
        return self.findings[0]

    @property
    def known(self) -> Known | None:
        return self.findings[0].known

    def to_json(self) -> dict:
        """One JSONL record (the reproducer, its outcomes, and how many calls the group holds)."""
        f = self.repro
        sigs = Counter(x.call.sig for x in self.findings)
        return {
            "category": self.category,
            "severity": self.severity,
            "op": self.op,
            "cause": self.cause,
            "count": len(self.findings),
            "sigs": dict(sigs.most_common(8)),
            "repro": f.call.src,
            "repro_id": f.call.cid,
            "minimized": self.minimized[0] if self.minimized else None,
            "ours": compare.summarize(f.ours, 400),
            "upstream": compare.summarize(f.ref, 400),
            "detail": f.detail,
            "known": self.known.reason if self.known else None,
        }


@dataclass
class Tally:
    """Counts per category and the findings of a run."""

    known: list[Known] = field(default_factory=list)
    counts: Counter = field(default_factory=Counter)
    known_counts: Counter = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)
    calls: int = 0

    def add(self, call: Call, ours: tuple, ref: tuple) -> Finding | None:
        """Classifies one call; returns its Finding if it is one."""
        category, detail = compare.classify(call, ours, ref)
        self.calls += 1
        self.counts[category] += 1
        if compare.severity(category) == 0:
            return None
        k = lookup(self.known, category, call.op, call.sig, cause(category, call, ours, ref))
        if k:
            self.known_counts[category] += 1
        f = Finding(call, category, detail, ours, ref, k)
        self.findings.append(f)
        return f

    def groups(self) -> list[Group]:
        """Findings grouped by (category, op, cause): most severe first, then the largest."""
        by: dict[tuple, list[Finding]] = defaultdict(list)
        for f in self.findings:
            by[(f.category, f.call.op, f.cause)].append(f)
        out = [Group(*key, sorted(fs, key=lambda f: (len(f.call.src), f.call.cid))) for key, fs in by.items()]
        return sorted(out, key=lambda g: (g.severity, -len(g.findings), g.op, g.cause))

    def unused_known(self) -> list[Known]:
        """Known entries that matched no finding of this run (fixed? then delete them)."""
        used = {id(f.known) for f in self.findings if f.known}
        return [k for k in self.known if id(k) not in used]

    def failing(self, fail_on: str) -> list[Finding]:
        """The findings that fail the run: a crash or hang of ours (always, unless `fail_on` is 'never'),
        and with 'divergence' every severity-2 finding not in the known list."""
        if fail_on == "never":
            return []
        bad = [f for f in self.findings if f.severity == 1]
        if fail_on == "divergence":
            bad += [f for f in self.findings if f.severity == 2 and f.known is None]
        return bad


def table(tally: Tally) -> str:
    """The counts per category, with how many of each are known."""
    lines = [f"{'category':<12} {'sev':>3} {'calls':>8} {'known':>7}  meaning"]
    for cat, (sev, meaning) in compare.CATEGORIES.items():
        n = tally.counts.get(cat, 0)
        if n or sev <= 1:
            k = tally.known_counts.get(cat, 0)
            lines.append(f"{cat:<12} {sev:>3} {n:>8} {k if k else '':>7}  {meaning}")
    lines.append(f"{'total':<12} {'':>3} {tally.calls:>8}")
    return "\n".join(lines)


def describe(groups: list[Group], max_groups: int = 60, width: int = 400) -> str:
    """The groups, most severe first: count, signatures, the shortest reproducer and both outcomes."""
    out = []
    titles = {1: "Crashes and hangs of ours", 2: "Divergences", 3: "Lesser differences", 4: "Upstream's own problems"}
    shown = 0
    for sev in (1, 2, 3, 4):
        gs = [g for g in groups if g.severity == sev]
        if not gs:
            continue
        out.append(f"\n== {titles[sev]}: {len(gs)} groups, {sum(len(g.findings) for g in gs)} calls ==")
        for g in gs:
            if shown >= max_groups and sev > 1:
                out.append(f"  ... {len(gs) - gs.index(g)} more groups (see groups.jsonl)")
                break
            shown += 1
            f = g.repro
            sigs = Counter(x.call.sig for x in g.findings)
            sig_text = ", ".join(f"{s} x{n}" for s, n in sigs.most_common(4)) + (", ..." if len(sigs) > 4 else "")
            known = f"  [known: {g.known.reason}]" if g.known else ""
            out.append(f"- [{g.category}] {g.op} / {g.cause}: {len(g.findings)} calls ({sig_text}){known}")
            out.append(f"    repro ({f.call.cid}): {_clip(f.call.src, width)}")
            out.append(f"    ours:     {compare.summarize(f.ours, 200)}")
            out.append(f"    upstream: {compare.summarize(f.ref, 200)}")
            if g.minimized:
                src, ours, ref = g.minimized
                out.append(f"    minimized: {_clip(src, width)}")
                out.append(f"      ours:     {compare.summarize(ours, 200)}")
                out.append(f"      upstream: {compare.summarize(ref, 200)}")
            if g.category not in ("crash", "hang", "raise-ours", "raise-ref", "ref-crash", "ref-hang"):
                out.append(f"    diff:     {f.detail[:200]}")
    return "\n".join(out)


def _clip(s: str, width: int) -> str:
    return s if len(s) <= width else s[: width - 20] + f" ... (+{len(s) - width + 20} chars)"


def write_jsonl(path: str, records) -> None:
    """Writes one JSON object a line."""
    with open(path, "w") as f:
        for r in records:
            f.write(json.dumps(r, default=str) + "\n")
