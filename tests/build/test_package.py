"""The shape of the Python package, read from its source alone (no build, no import of torch).

- No import cycles between torch's modules: every import counts, at module level or inside a
  function, with the packages Python imports on the way (`import torch.autograd.graph` runs
  torch/autograd/__init__.py first).
- The package root `torch` is the facade that imports everything; a module may `import torch` to reach
  that namespace at call time, so edges into the root are left out of the cycle check. What makes that
  safe is checked instead: no module touches `torch.<name>`, or takes a name that is not a module from
  a package it is in (`from torch import Tensor`), while it is being imported: the package is still
  half done then.
- One place adds functions and methods: nothing but torch/_registry.py sets attributes on torch or
  torch.Tensor (setattr or assignment).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "torch"
REGISTRY = "torch._registry"


def _modules() -> dict[str, ast.Module]:
    """Every module of the package: dotted name -> parsed source (packages under their own name)."""
    out = {}
    for path in sorted((ROOT / PACKAGE).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = ast.parse(path.read_text(), str(path))
    return out


MODULES = _modules()
EXTENSIONS = {f"{PACKAGE}._C"}  # built from torch/csrc; imports no module of the package


def _is_package(name: str) -> bool:
    return (ROOT / name.replace(".", "/") / "__init__.py").exists()


def _ancestors(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def _absolute(module: str, node: ast.ImportFrom) -> str:
    """The module an ImportFrom names, with relative imports resolved."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base if _is_package(module) else base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _imported(module: str, tree: ast.Module) -> set[str]:
    """The package's modules that importing `module` (or calling its functions) imports: each one named
    and the packages Python imports on the way, but `module`'s own packages (already there)."""
    targets = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(module, node)
            targets.add(source)
            targets.update(f"{source}.{alias.name}" for alias in node.names)
    known = MODULES.keys() | EXTENSIONS
    found = set()
    for target in targets & known:
        found.update(_ancestors(target))
        found.add(target)
    return found - set(_ancestors(module)) - {module}


def import_graph() -> dict[str, set[str]]:
    """module -> the modules it imports, without the edges into the root package (see the docstring)."""
    return {m: _imported(m, tree) - {PACKAGE} for m, tree in MODULES.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as [a, b, ..., a], or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state:
                cycle = visit(nxt)
                if cycle:
                    return cycle
        state[node] = 2
        path.pop()
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def _import_time_nodes(tree: ast.Module):
    """The nodes Python evaluates when the module is imported: everything but function bodies
    (decorators, default values and, without `from __future__ import annotations`, annotations do run)."""
    lazy_annotations = any(
        isinstance(n, ast.ImportFrom) and n.module == "__future__" and any(a.name == "annotations" for a in n.names)
        for n in tree.body
    )
    stack = list(tree.body)
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            stack.extend(node.decorator_list)
            stack.extend(d for d in node.args.defaults + node.args.kw_defaults if d is not None)
            if not lazy_annotations:
                args = (
                    node.args.posonlyargs + node.args.args + node.args.kwonlyargs + [node.args.vararg, node.args.kwarg]
                )
                stack.extend(a.annotation for a in args if a is not None and a.annotation is not None)
                stack.extend([node.returns] if node.returns else [])
        elif isinstance(node, ast.Lambda):
            stack.extend(d for d in node.args.defaults + node.args.kw_defaults if d is not None)
        elif isinstance(node, ast.AnnAssign) and lazy_annotations:
            stack.extend([node.target] + ([node.value] if node.value else []))
        else:
            stack.extend(ast.iter_child_nodes(node))


def test_no_import_cycles():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_cycle_check_sees_cycles():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None
    inside_a_function = ast.parse("def f():\n    from torch.autograd import graph, no_grad\n")
    assert _imported("torch._tensor", inside_a_function) == {"torch.autograd", "torch.autograd.graph"}
    assert _imported("torch.autograd.engine", inside_a_function) == {"torch.autograd.graph"}
    assert {"torch._C", "torch.autograd.graph", "torch.autograd._views"} <= import_graph()["torch.autograd._recording"]


def test_modules_use_their_packages_namespaces_only_at_call_time():
    problems = []
    for module, tree in MODULES.items():
        if module == PACKAGE:
            continue
        for node in _import_time_nodes(tree):
            line = f"{module}:{getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == PACKAGE:
                problems.append(f"{line}: torch.{node.attr} while the module is imported")
            source = _absolute(module, node) if isinstance(node, ast.ImportFrom) else None
            if source in _ancestors(module):  # a package still being imported when `module` is
                names = [a.name for a in node.names if f"{source}.{a.name}" not in MODULES.keys() | EXTENSIONS]
                if names:
                    problems.append(f"{line}: from {source} import {', '.join(names)} (not a module)")
    assert not problems, "\n".join(problems)


def _is_torch_or_tensor(node: ast.AST) -> bool:
    """`torch`, `Tensor`, `torch.Tensor` or `_C.Tensor`."""
    if isinstance(node, ast.Name):
        return node.id in (PACKAGE, "Tensor")
    return isinstance(node, ast.Attribute) and node.attr == "Tensor" and isinstance(node.value, ast.Name)


def test_only_the_registry_adds_functions_and_methods():
    problems = []
    for module, tree in MODULES.items():
        if module == REGISTRY:
            continue
        for node in ast.walk(tree):
            targets = []
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr":
                targets = node.args[:1]
            elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                found = node.targets if isinstance(node, ast.Assign) else [node.target]
                targets = [t.value for t in found if isinstance(t, ast.Attribute)]
            if any(_is_torch_or_tensor(t) for t in targets):
                problems.append(f"{module}:{node.lineno}: {ast.unparse(node).splitlines()[0]}")
    assert not problems, "use torch._registry.register instead:\n" + "\n".join(problems)
