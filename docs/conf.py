"""Sphinx configuration of the docs (`nox -s docs`): the API reference from the docstrings of the built
package, and the contributor guide, whose text is README.md's (included, not copied)."""

from __future__ import annotations

import re

import torch

project = "torch (TH edition)"
author = "the torch-th contributors"
copyright = "2026, the torch-th contributors"
release = version = str(torch.__version__)  # a TorchVersion (a str subclass): Sphinx wants a plain str

extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon", "sphinx.ext.viewcode", "myst_parser"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build"]
html_theme = "furo"
html_title = f"torch (TH edition) {release}"
autodoc_default_options = {"members": True, "member-order": "bysource"}
autodoc_typehints = "description"
myst_heading_anchors = 3
# README.md's links point into the repository (files, folders): outside the docs, not documents of them
suppress_warnings = ["myst.xref_missing"]
nitpicky = False

# The docstrings are plain text with Markdown's `code` spans (what `help()` shows reads well): each line is made
# reStructuredText-safe before autodoc renders it. `x` becomes a literal; outside literals, `*`, `|` and a
# name's trailing `_` (add_, an in-place method) are escaped, or reST would read emphasis, substitutions and
# link targets into them.
_CODE = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
_LITERAL = re.compile(r"(``.+?``)")


def _rst_safe(line: str) -> str:
    parts = _LITERAL.split(_CODE.sub(r"``\1``", line))
    for i in range(0, len(parts), 2):  # the text between literals
        p = parts[i].replace("\\", "\\\\").replace("*", "\\*").replace("|", "\\|")
        parts[i] = re.sub(r"(\w)_(?=\W|$)", r"\1\\_", p)
    return "".join(parts)


def _docstring_as_rst(app, what, name, obj, options, lines) -> None:
    """Every line made safe, except those of literal blocks (after a `::` line, indented more) and doctests."""
    out, block_indent = [], None
    for line in lines:
        indent = len(line) - len(line.lstrip())
        if block_indent is not None and line.strip() and indent <= block_indent:
            block_indent = None
        if block_indent is not None or line.lstrip().startswith(">>>"):
            out.append(line)
            continue
        out.append(_rst_safe(line))
        if line.rstrip().endswith("::"):
            block_indent = indent
    lines[:] = out


def _torch_functions() -> list[str]:
    """The public functions of the torch namespace (bound from torch._C or written in Python under torch/_refs)."""
    return sorted(
        n
        for n in dir(torch)
        if not n.startswith("_") and callable(getattr(torch, n)) and not isinstance(getattr(torch, n), type)
    )


def _list_functions(app, docname: str, source: list[str]) -> None:
    """api/torch's `.. torch-functions` line becomes one autofunction per function, read from the package
    itself (nothing is generated into the source tree)."""
    if docname == "api/torch":
        entries = "".join(f".. autofunction:: torch.{n}\n\n" for n in _torch_functions())
        source[0] = source[0].replace(".. torch-functions\n", entries)


def _api_pages(app, env, added, changed, removed) -> list[str]:
    """The API pages are read again on every build: their text comes from the package, which Sphinx does not
    track (a new function would otherwise appear only after a clean build)."""
    return [doc for doc in env.found_docs if doc.startswith("api/")]


def setup(app) -> None:
    app.connect("autodoc-process-docstring", _docstring_as_rst)
    app.connect("source-read", _list_functions)
    app.connect("env-get-outdated", _api_pages)
