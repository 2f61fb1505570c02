"""One generated call: its source text and how its outcome is compared."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Call:
    """A call as source text (statements allowed; the value of the last expression is the result).

    op: what it exercises, for grouping ('floor_divide', 'setitem', 'as_strided');
    sig: the operand dtypes/kinds that distinguish causes within an op ('int8,int');
    values: compare element values (False for uninitialized or nondeterministic results: shape/dtype only);
    only: for a tuple result, the items compared (sort/topk indices may legitimately differ on ties);
    accum: a reduction or matrix product (looser float tolerance: summation order differs);
    strides: the strides of the result are part of the contract (views).
    """

    op: str
    src: str
    sig: str = ""
    values: bool = True
    only: tuple[int, ...] | None = None
    accum: bool = False
    strides: bool = False
    cid: str = ""

    def to_json(self) -> dict:
        """The call as a JSON-able dict (for findings files)."""
        return {"id": self.cid, "op": self.op, "sig": self.sig, "src": self.src}
