"""The op model: PyTorch-style schemas parsed from native_functions.yaml.

    - func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
      variants: function, method
      inplace: method      # also add_.Tensor(Tensor(a!) self, ...) -> Tensor(a!), a Tensor method
      out: True            # also add.out(..., *, Tensor(a!) out) -> Tensor(a!), a torch function
      out: castable        # (or exact) torch.sum's out=: the binding writes the result into out (torch/_out.py)

`python_module: nn` binds an op in torch._C._nn instead of on torch (PyTorch's home of the kernels behind
torch.nn.functional: gelu, silu, ...). One entry declares an op's functional form and, with `inplace:` /
`out:`, its in-place and out= forms (PyTorch's structured ops): all three call the one implementation of
the op in the library, th::add, th::add_ and th::add_out. `out: castable` / `out: exact` give an op without
a th::<name>_out upstream's out= all the same, as its composite out= wrappers behave: the torch function's
binding gets a second overload with a keyword-only out, which computes the result and writes it into out
(any dtype the result casts to, or its own dtype only: torch/_out.py's rules). `dispatch:` names the C++
entry point only where it is not th::<name> (th::<name>_out for an out= overload), or where an op runs on
some devices only.

Every problem is a CodegenError naming the YAML file and line. With a `Memo` (memo.py), an
entry whose text did not change since the last run is not parsed again.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

from .memo import Memo, split_entries

BASE_TYPES = (
    "Tensor", "Scalar", "int", "float", "bool", "str", "ScalarType", "Device", "Generator", "MemoryFormat", "Layout"
)  # fmt: skip
DEVICES = ("CPU", "CUDA")
VARIANTS = ("function", "method")


class CodegenError(Exception):
    """A problem in native_functions.yaml, with its location."""


@dataclass(frozen=True)
class Type:
    """An argument or return type: `Tensor(a!)`, `int[1]?`, `Scalar`..."""

    base: str
    is_list: bool = False
    optional: bool = False
    alias: str | None = None
    mutable: bool = False

    _RE = re.compile(r"^(?P<base>\w+)(?P<list>\[\d*\])?(?:\((?P<alias>\w+)(?P<mut>!)?\))?(?P<opt>\?)?$")

    @classmethod
    def parse(cls, text: str) -> Type:
        """Parses one type; raises ValueError on anything unknown."""
        m = cls._RE.match(text)
        if not m or m["base"] not in BASE_TYPES:
            raise ValueError(f"unknown type '{text}' (known: {', '.join(BASE_TYPES)}, with [] and ?)")
        if m["list"] and m["base"] not in ("int", "Tensor"):
            raise ValueError(f"only int[] and Tensor[] lists are supported, got '{text}'")
        return cls(m["base"], bool(m["list"]), bool(m["opt"]), m["alias"], bool(m["mut"]))

    def __str__(self) -> str:
        alias = f"({self.alias}{'!' if self.mutable else ''})" if self.alias else ""
        return f"{self.base}{'[]' if self.is_list else ''}{alias}{'?' if self.optional else ''}"


@dataclass(frozen=True)
class Argument:
    """One schema argument."""

    name: str
    type: Type
    default: str | None = None
    kwarg_only: bool = False


@dataclass(frozen=True)
class Schema:
    """`name.overload(args) -> returns`."""

    name: str
    overload: str
    arguments: tuple[Argument, ...]
    returns: tuple[Type, ...]
    return_names: tuple[str, ...] = ()  # `(Tensor values, Tensor indices)` -> a named tuple

    _RE = re.compile(r"^(?P<name>\w+)(?:\.(?P<overload>\w+))?\((?P<args>.*)\)\s*->\s*(?P<ret>.+)$")

    @classmethod
    def parse(cls, text: str) -> Schema:
        """Parses a `func:` string; raises ValueError with the reason."""
        m = cls._RE.match(text.strip())
        if not m:
            raise ValueError(f"cannot parse schema '{text}' (expected 'name.overload(args) -> returns')")
        args, kwarg_only = [], False
        for piece in split_top_level(m["args"]):
            if piece == "*":
                kwarg_only = True
                continue
            decl, _, default = piece.partition("=")
            parts = decl.split()
            if len(parts) != 2:
                raise ValueError(f"cannot parse argument '{piece}' (expected 'Type name[=default]')")
            args.append(Argument(parts[1], Type.parse(parts[0]), default or None, kwarg_only))
        names = [a.name for a in args]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate argument names in '{text}'")
        ret = m["ret"].strip()
        parts = [r.split() for r in split_top_level(ret[1:-1])] if ret.startswith("(") else [[ret]]
        returns = tuple(Type.parse(p[0]) for p in parts)
        names = tuple(p[1] for p in parts if len(p) == 2)
        if names and len(names) != len(parts):
            raise ValueError(f"name every return or none in '{text}'")
        return cls(m["name"], m["overload"] or "", tuple(args), returns, names)

    @property
    def full_name(self) -> str:
        """`add.Tensor`, or `relu` without an overload."""
        return f"{self.name}.{self.overload}" if self.overload else self.name

    @property
    def is_out(self) -> bool:
        """An `.out` overload: its mutable kwarg-only arguments are outputs."""
        return self.overload == "out" or self.overload.endswith("_out")

    def __str__(self) -> str:
        parts, star = [], False
        for a in self.arguments:
            if a.kwarg_only and not star:
                parts.append("*")
                star = True
            parts.append(f"{a.type} {a.name}" + (f"={a.default}" if a.default is not None else ""))
        rets = ", ".join(
            f"{t} {n}" if self.return_names else str(t) for t, n in zip(self.returns, self.return_names or self.returns)
        )
        rets = f"({rets})" if len(self.returns) != 1 else rets
        return f"{self.full_name}({', '.join(parts)}) -> {rets}"


def split_top_level(text: str) -> list[str]:
    """Splits on commas outside brackets and parentheses."""
    out, depth, cur = [], 0, []
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        out.append("".join(cur).strip())
    return out


@dataclass(frozen=True)
class NativeFunction:
    """One entry of native_functions.yaml."""

    schema: Schema
    variants: frozenset[str]
    dispatch: dict[str, str] = field(hash=False)
    doc: str
    line: int
    python_module: str = ""  # "nn": bound in torch._C._nn (torch.nn.functional's kernels), not on torch
    # whether a Tensor argument also takes a Python number (a wrapped number); `numbers: False` for the
    # ops upstream has no Scalar overload of, whose tensors must be tensors (torch.maximum(x, 1) is a TypeError)
    numbers: bool = True
    # `out: castable` / `out: exact`: the function's binding also takes out= and writes the result into it
    out_rule: str = ""
    # `conj: aware`: the op takes tensors with the conjugate bit as they are (TH handles the bit: copy_, fill_,
    # clone, conj, ...); every other op's binding resolves its tensor arguments first (torch/csrc/Conj.h)
    conj_aware: bool = False
    # `autocast:` the op's torch.autocast policy per device (AUTOCAST_POLICIES' index; 0: none), (CPU, CUDA)
    autocast: tuple[int, int] = (0, 0)

    @property
    def cpp_name(self) -> str:
        """The C++ entry point: the dispatch target, or th::<name>[_out]."""
        if self.dispatch:
            return next(iter(self.dispatch.values()))
        return f"th::{self.schema.name}" + ("_out" if self.schema.is_out else "")


@cache
def _loader() -> type:
    """The YAML loader: libyaml's C parser when available (10x faster), recording each mapping's
    line as `__line__`. Built on first use: importing yaml is ~20 ms of a memoized run."""
    import yaml  # noqa: PLC0415

    class LineLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
        def construct_mapping(self, node, deep=False):
            mapping = super().construct_mapping(node, deep=deep)
            mapping["__line__"] = node.start_mark.line + 1
            return mapping

    return LineLoader


def _parse_yaml(path: Path, text: str) -> object:
    import yaml  # noqa: PLC0415

    try:
        return yaml.load(text, Loader=_loader())
    except yaml.YAMLError as e:
        raise CodegenError(f"{path}: invalid YAML: {e}") from None


class _NotOneEntry(Exception):
    """A chunk from split_entries did not parse as one entry on its own (the whole file decides)."""


def _parse_chunk(line: int, chunk: str) -> dict:
    """One entry, parsed alone; the blank lines put in front make its line numbers the file's."""
    import yaml  # noqa: PLC0415

    try:
        value = yaml.load("\n" * (line - 1) + chunk, Loader=_loader())
    except yaml.YAMLError:
        raise _NotOneEntry from None
    if not (isinstance(value, list) and len(value) == 1 and isinstance(value[0], dict)):
        raise _NotOneEntry
    return value[0]


def load_list(
    path: Path, convert: Callable[[dict], object], memo: Memo | None = None, kind: str = ""
) -> list[tuple[int, str, object]]:
    """(line, text, value) for each entry of a YAML file that is a list of mappings, in file order:
    `value` is the entry passed through `convert` (which sees the line as `__line__`).

    With a memo that is kept between runs, each entry's text is the key of its converted value
    (under `kind`; the value must be plain data), so only entries edited since the last run are
    parsed and converted. Without one, the file is parsed whole and `text` is empty."""
    text = path.read_text()
    chunks = split_entries(text) if memo is not None and memo.path is not None else None
    if chunks is not None:
        try:
            return [(ln, c, memo.get((kind, c), lambda ln=ln, c=c: convert(_parse_chunk(ln, c)))) for ln, c in chunks]
        except _NotOneEntry:
            pass  # e.g. an alias to another entry: parse the file whole, as YAML defines it
    entries = _parse_yaml(path, text)
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise CodegenError(f"{path}: expected a list of entries")
    return [(e.get("__line__", 0), "", convert(e)) for e in entries]


def check_unique(path: Path, ops: Iterable[tuple[int, str]]) -> None:
    """Raises on an op name (`add.Tensor`) given twice: ops are (line, full name)."""
    seen: dict[str, int] = {}
    for line, name in ops:
        if name in seen:
            raise CodegenError(f"{path}:{line}: duplicate op '{name}' (first at line {seen[name]})")
        seen[name] = line


# torch.autocast's policies, as upstream's: cast floating inputs to the region's dtype, to float32, to the widest
# of them, or refuse the op (its index is what the bindings pass torch/csrc/Autocast.h)
AUTOCAST_POLICIES = ("", "lower_precision_fp", "fp32", "promote", "banned")


def _autocast(value, loc: str) -> tuple[int, int]:
    """`autocast: POLICY` (both devices) or `autocast: {CPU: POLICY, CUDA: POLICY}` as (CPU, CUDA) indices."""
    if isinstance(value, str):
        value = {"CPU": value, "CUDA": value}
    if not isinstance(value, dict):
        raise CodegenError(f"{loc}: 'autocast:' is a policy or a mapping of CPU/CUDA to policies")
    value = {k: v for k, v in value.items() if k != "__line__"}
    if not set(value) <= set(DEVICES) or not all(v in AUTOCAST_POLICIES[1:] for v in value.values()):
        raise CodegenError(
            f"{loc}: 'autocast:' maps {', '.join(DEVICES)} to one of {', '.join(AUTOCAST_POLICIES[1:])}, got {value}"
        )
    return tuple(AUTOCAST_POLICIES.index(value.get(d, "")) for d in DEVICES)


def parse_entry(entry: dict, where: str) -> NativeFunction:
    """Validates and converts one YAML entry."""
    line = entry.pop("__line__", 0)
    loc = f"{where}:{line}"
    keys = {"func", "variants", "dispatch", "doc", "inplace", "out", "python_module", "numbers", "conj", "autocast"}
    unknown = set(entry) - keys
    if unknown:
        raise CodegenError(f"{loc}: unknown key(s) {sorted(unknown)}")
    if "func" not in entry:
        raise CodegenError(f"{loc}: entry has no 'func:'")
    try:
        schema = Schema.parse(entry["func"])
    except ValueError as e:
        raise CodegenError(f"{loc}: {e}") from None
    variants = frozenset(v.strip() for v in str(entry.get("variants", "function")).split(","))
    if not variants <= set(VARIANTS):
        raise CodegenError(f"{loc}: unknown variant(s) {sorted(variants - set(VARIANTS))} (known: {VARIANTS})")
    if "method" in variants and (not schema.arguments or schema.arguments[0].name != "self"):
        raise CodegenError(f"{loc}: a method variant needs 'self' as first argument")
    dispatch: dict[str, str] = {}
    raw = entry.get("dispatch") or {}
    raw.pop("__line__", None)
    for keys, target in raw.items():
        for key in (k.strip() for k in keys.split(",")):
            if key not in DEVICES:
                raise CodegenError(f"{loc}: unknown dispatch key '{key}' (known: {', '.join(DEVICES)})")
            dispatch[key] = target
    if len(set(dispatch.values())) > 1:
        raise CodegenError(f"{loc}: one C++ entry point per op (the library dispatches per device)")
    if dispatch and not any(a.type.base == "Tensor" for a in schema.arguments):
        raise CodegenError(f"{loc}: 'dispatch' needs a Tensor argument to take the device from")
    python_module = str(entry.get("python_module", ""))
    if python_module not in ("", "nn"):
        raise CodegenError(f"{loc}: python_module is 'nn' or absent, got '{python_module}'")
    if python_module and variants != {"function"}:
        raise CodegenError(f"{loc}: an op of python_module 'nn' is a function only")
    numbers = entry.get("numbers", True)
    if numbers not in (True, False):
        raise CodegenError(f"{loc}: 'numbers:' is True or False, got {numbers!r}")
    conj = entry.get("conj", "")
    if conj not in ("", "aware"):
        raise CodegenError(f"{loc}: 'conj:' is 'aware' or absent, got {conj!r}")
    return NativeFunction(
        schema,
        variants,
        dispatch,
        str(entry.get("doc", "")).strip(),
        line,
        python_module,
        numbers,
        conj_aware=conj == "aware",
        autocast=_autocast(entry["autocast"], loc) if "autocast" in entry else (0, 0),
    )


def parse_entries(entry: dict, where: str) -> list[NativeFunction]:
    """The ops one YAML entry declares: its functional form, then the in-place form (`inplace:`, the
    in-place op's variants) and the out= form (`out: True`) derived from its schema."""
    entry = dict(entry)
    inplace, out = entry.pop("inplace", None), entry.pop("out", False)
    f = parse_entry(entry, where)
    loc = f"{where}:{f.line}"
    if out not in (True, False, "castable", "exact"):
        raise CodegenError(f"{loc}: 'out:' is True, False, castable or exact, got {out!r}")
    if out in ("castable", "exact"):  # the binding writes the result: any functional op, any dispatch
        if "function" not in f.variants or f.schema.is_out or f.schema.name.endswith("_"):
            raise CodegenError(f"{loc}: 'out: {out}' needs a functional op with a function variant")
        f, out = replace(f, out_rule=out), False
    if (inplace or out) and (f.schema.is_out or f.schema.name.endswith("_") or f.dispatch or f.python_module):
        raise CodegenError(f"{loc}: 'inplace:' and 'out:' derive from a functional op with the default dispatch")
    funcs = [f]
    if inplace:
        funcs.append(_inplace_form(f, inplace, loc))
    if out:
        funcs.append(_out_form(f, loc))
    return funcs


def _single_tensor_return(f: NativeFunction, loc: str, form: str) -> None:
    if f.schema.returns != (Type("Tensor"),):
        raise CodegenError(f"{loc}: an {form} form needs an op that returns one Tensor")


def _inplace_form(f: NativeFunction, variants: str, loc: str) -> NativeFunction:
    """`name_.overload(Tensor(a!) self, ...) -> Tensor(a!)` with the given variants."""
    _single_tensor_return(f, loc, "in-place")
    args = f.schema.arguments
    if not args or args[0].name != "self" or args[0].type != Type("Tensor"):
        raise CodegenError(f"{loc}: an in-place form needs 'Tensor self' as first argument")
    mutable = Type("Tensor", alias="a", mutable=True)
    schema = replace(
        f.schema, name=f.schema.name + "_", arguments=(replace(args[0], type=mutable), *args[1:]), returns=(mutable,)
    )
    entry = {"func": str(schema), "variants": variants, "numbers": f.numbers, "__line__": f.line}
    return parse_entry(entry, loc.rsplit(":", 1)[0])


def _out_form(f: NativeFunction, loc: str) -> NativeFunction:
    """`name.out(..., *, Tensor(a!) out) -> Tensor(a!)`, a torch function."""
    _single_tensor_return(f, loc, "out=")
    mutable = Type("Tensor", alias="a", mutable=True)
    out = Argument("out", mutable, None, kwarg_only=True)
    schema = replace(f.schema, overload="out", arguments=(*f.schema.arguments, out), returns=(mutable,))
    return parse_entry({"func": str(schema), "numbers": f.numbers, "__line__": f.line}, loc.rsplit(":", 1)[0])


def inplace_name(full_name: str) -> str:
    """The in-place variant's name of an op (`mul.Tensor` -> `mul_.Tensor`), PyTorch's convention."""
    name, _, overload = full_name.partition(".")
    return f"{name}_.{overload}" if overload else f"{name}_"


def load(path: Path) -> list[NativeFunction]:
    """Parses native_functions.yaml into NativeFunctions (YAML order), validating every entry."""
    where = str(path)
    funcs = [f for _, _, fs in load_list(path, lambda e: parse_entries(e, where)) for f in fs]
    check_unique(path, ((f.line, f.schema.full_name) for f in funcs))
    return funcs
