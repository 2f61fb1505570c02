"""Activation checkpointing (PyTorch's torch.utils.checkpoint): trade compute for memory by not keeping a
region's intermediate results for backward, recomputing them when the backward pass reaches the region.

Two variants, as upstream:

* use_reentrant=True (CheckpointFunction): the region runs under no_grad; its backward reruns it with grad
  and calls the engine again (reentrantly) from the outputs' gradients: the gradients of tensor arguments are
  returned, parameters the region closes over accumulate into their .grad from that inner pass. Hence
  upstream's limits: no torch.autograd.grad / backward(inputs=...), no keyword arguments, nothing flows
  unless a tensor argument requires grad.
* use_reentrant=False (the default upstream recommends): upstream swaps the region's saved tensors for
  saved-tensor hooks. Our autograd has no such hooks, so the region runs with grad and its graph is then cut
  out: its outputs get one CheckpointBackward node whose edges are the region's boundary, the edges through
  which its graph reached tensors from outside it (the arguments, the parameters and any other tensor it
  closes over); the inner graph, with the activations it saved, is freed. That node's backward reruns the
  region, cuts the new graph at the same boundary positions and backpropagates through it into the boundary,
  so gradients reach the same tensors, through autograd.grad and backward(inputs=...) too, and hooks on
  them run in the outer pass.

  The inner nodes are told from the outside ones by liveness: once the outputs point to the new node, the
  inner graph is referenced by nothing but itself and dies, while the nodes of outside tensors live on. A
  node kept alive another way (an intermediate the region stores somewhere) simply stays in the graph,
  treated as part of the boundary: the gradients stay right, only its memory is not saved.

Both replay the forward's autocast state and (preserve_rng_state) its RNG state for the recomputation, so
dropout draws the same masks.
"""

from __future__ import annotations

import contextlib
import warnings
import weakref

import torch
from torch import _C
from torch._C import Tensor
from torch.autograd import engine as _engine
from torch.autograd.function import Function
from torch.autograd.graph import _FREED, AccumulateGrad, Node, edge, set_history

__all__ = [
    "checkpoint",
    "checkpoint_sequential",
    "CheckpointError",
    "CheckpointFunction",
    "check_backward_validity",
    "detach_variable",
    "get_device_states",
    "set_device_states",
    "noop_context_fn",
    "set_checkpoint_early_stop",
    "DefaultDeviceType",
    "set_checkpoint_debug_enabled",
]

_DEFAULT_DETERMINISM_MODE = "default"
_checkpoint_debug_enabled: bool | None = None
_enable_checkpoint_early_stop: bool | None = None


class CheckpointError(RuntimeError):
    """A recomputation that does not match the original forward."""


@contextlib.contextmanager
def set_checkpoint_debug_enabled(enabled: bool | None):
    """Overrides checkpoint's `debug` flag while active (None: defer to each call's own)."""
    global _checkpoint_debug_enabled
    prev = _checkpoint_debug_enabled
    _checkpoint_debug_enabled = enabled
    try:
        yield
    finally:
        _checkpoint_debug_enabled = prev


@contextlib.contextmanager
def set_checkpoint_early_stop(enable: bool):
    """Overrides checkpoint's `early_stop` flag for the forwards run while active. Accepted for compatibility:
    our recomputation always reruns the whole region (the gradients are the same)."""
    global _enable_checkpoint_early_stop
    prev = _enable_checkpoint_early_stop
    _enable_checkpoint_early_stop = enable
    try:
        yield
    finally:
        _enable_checkpoint_early_stop = prev


def noop_context_fn():
    """The default context_fn: no context for the forward nor for the recomputation."""
    return contextlib.nullcontext(), contextlib.nullcontext()


def detach_variable(inputs: tuple) -> tuple:
    """The tensors of `inputs` detached, each keeping its requires_grad (other values as they are)."""
    if not isinstance(inputs, tuple):
        raise RuntimeError(f"Only tuple of tensors is supported. Got Unsupported input type: {type(inputs).__name__}")
    out = []
    for inp in inputs:
        if not isinstance(inp, Tensor):
            out.append(inp)
            continue
        x = inp.detach()
        x.requires_grad_(inp.requires_grad)
        out.append(x)
    return tuple(out)


def check_backward_validity(inputs) -> None:
    """Warns when no tensor of `inputs` requires grad (the reentrant checkpoint then gives no gradients)."""
    if not any(inp.requires_grad for inp in inputs if isinstance(inp, Tensor)):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None", stacklevel=2)


class DefaultDeviceType:
    """The device type whose RNG state checkpoint saves when no argument is on an accelerator."""

    _default_device_type: str | None = None

    @staticmethod
    def set_device_type(device: str = "cuda") -> None:
        """Sets the default device type."""
        DefaultDeviceType._default_device_type = device

    @staticmethod
    def get_device_type() -> str:
        """The default device type: "cuda" where a GPU is available, else "cpu", unless set."""
        if not DefaultDeviceType._default_device_type:
            DefaultDeviceType._default_device_type = "cuda" if torch.cuda.is_available() else "cpu"
        return DefaultDeviceType._default_device_type


def _tensors_in(obj) -> list:
    """The tensors in obj (nested in tuples, lists and dicts), in order."""
    if isinstance(obj, Tensor):
        return [obj]
    if isinstance(obj, (tuple, list)):
        return [t for o in obj for t in _tensors_in(o)]
    if isinstance(obj, dict):
        return [t for o in obj.values() for t in _tensors_in(o)]
    return []


def _replace_tensors(obj, new: dict):
    """obj with each tensor t whose id is in `new` replaced by new[id(t)] (containers rebuilt)."""
    if isinstance(obj, Tensor):
        return new.get(id(obj), obj)
    if isinstance(obj, (tuple, list)):
        items = [_replace_tensors(o, new) for o in obj]
        if isinstance(obj, list):
            return type(obj)(items) if type(obj) is not list else items
        return type(obj)(*items) if hasattr(obj, "_fields") else type(obj)(items)
    if isinstance(obj, dict):
        out = obj.copy()
        for k, v in obj.items():
            out[k] = _replace_tensors(v, new)
        return out
    return obj


def _infer_device_type(*args) -> str:
    """The accelerator type of the tensor arguments (cuda first), else the default device type."""
    device_types = [t.device.type for t in _tensors_in(args) if t.device.type != "cpu"]
    kinds = set(device_types)
    if len(kinds) > 1:
        warnings.warn(
            "Tensor arguments, excluding CPU tensors, are detected on at least two types of devices. "
            "Device state will only be saved for devices of a single device type, and the remaining "
            "devices will be ignored. Consequently, if any checkpointed functions involve randomness, "
            "this may result in incorrect gradients. (Note that if CUDA devices are among the devices "
            "detected, it will be prioritized; otherwise, the first device encountered will be selected.)"
            f"\nDevice types: {sorted(kinds)} first device type: {device_types[0]}",
            stacklevel=2,
        )
    if not device_types:
        return DefaultDeviceType.get_device_type()
    return "cuda" if "cuda" in kinds else device_types[0]


def _device_module(device_type: str):
    return getattr(torch, device_type)


def _device_initialized(device_type: str) -> bool:
    """Whether the accelerator's RNG state is worth saving (ours: the device type is available)."""
    if device_type in ("cpu", "meta"):
        return False
    mod = getattr(torch, device_type, None)
    if mod is None:
        return False
    flag = getattr(mod, "_initialized", None)
    return bool(flag) if flag is not None else bool(mod.is_available())


def get_device_states(*args) -> tuple[list, list]:
    """The indices of the accelerators the tensor arguments live on, and their generators' states."""
    ids = []
    for t in _tensors_in(args):
        if t.device.type not in ("cpu", "meta") and t.device.index not in ids:
            ids.append(t.device.index if t.device.index is not None else 0)
    mod = _device_module(_infer_device_type(*args))
    return ids, [mod.get_rng_state(i) for i in ids]


def set_device_states(devices, states, *, device_type=None) -> None:
    """Restores the generator state of each accelerator in `devices` (of `device_type`, default
    DefaultDeviceType.get_device_type()) to the matching one of `states`."""
    if device_type is None:
        device_type = DefaultDeviceType.get_device_type()
    if device_type == "meta":
        return
    mod = _device_module(device_type)
    for device, state in zip(devices, states):
        mod.set_rng_state(state, device)


def _autocast_states(device_type: str) -> list:
    """The forward's autocast state, (device type, enabled, dtype, cache_enabled) for the arguments' device type
    and the CPU; empty where this build has no autocast."""
    try:
        from torch.amp import autocast_mode as am  # noqa: PLC0415

        kinds = ([device_type] if device_type not in ("cpu", "meta") else []) + ["cpu"]
        return [
            (d, am.is_autocast_enabled(d), am.get_autocast_dtype(d), am.is_autocast_cache_enabled())
            for d in kinds
            if am.is_autocast_available(d)
        ]
    except (ImportError, AttributeError):  # a build without torch.amp (or its kernels)
        return []


class _ForwardState:
    """What the recomputation of a region replays from its forward: the RNG states (preserve_rng_state) and the
    autocast state."""

    def __init__(self, preserve: bool, args: tuple) -> None:
        self.preserve = preserve
        self.device_type = _infer_device_type(*args)
        self.devices, self.states = [], []
        if preserve:
            self.cpu_state = torch.get_rng_state()
            self.had_device = _device_initialized(self.device_type)
            if self.had_device:
                self.devices, self.states = get_device_states(*args)
        self.autocast = _autocast_states(self.device_type)

    @contextlib.contextmanager
    def restored(self):
        """The forward's RNG and autocast state while active; the surrounding state is back on exit."""
        with torch.random.fork_rng(devices=self.devices, enabled=self.preserve, device_type=self.device_type):
            if self.preserve:
                torch.set_rng_state(self.cpu_state)
                if self.had_device:
                    set_device_states(self.devices, self.states, device_type=self.device_type)
            with contextlib.ExitStack() as stack:
                if self.autocast:
                    from torch.amp import autocast  # noqa: PLC0415

                    for d, enabled, dtype, cache in self.autocast:
                        stack.enter_context(autocast(d, dtype=dtype, enabled=enabled, cache_enabled=cache))
                yield


def _in_grad_or_inputs_backward() -> bool:
    """Whether the backward pass running this node is torch.autograd.grad or backward(inputs=...)."""
    return _engine.backward_has_inputs()


class CheckpointFunction(Function):
    """The reentrant checkpoint: forward under no_grad, backward recomputes and runs the engine again."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        check_backward_validity(args)
        ctx.run_function = run_function
        ctx.rng = _ForwardState(preserve_rng_state, args)
        ctx.inputs = []
        ctx.tensor_indices = []
        tensor_inputs = []
        for i, arg in enumerate(args):
            if isinstance(arg, Tensor):
                tensor_inputs.append(arg)
                ctx.tensor_indices.append(i)
                ctx.inputs.append(None)
            else:
                ctx.inputs.append(arg)
        ctx.save_for_backward(*tensor_inputs)
        with torch.no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx, *args):
        if _in_grad_or_inputs_backward():
            raise RuntimeError(
                "When use_reentrant=True, torch.utils.checkpoint is incompatible"
                " with .grad() or passing an `inputs` parameter to .backward()."
                " To resolve this error, you can either set use_reentrant=False,"
                " or call .backward() without passing the `inputs` argument."
            )
        inputs = list(ctx.inputs)
        for i, t in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[i] = t
        with ctx.rng.restored():
            detached_inputs = detach_variable(tuple(inputs))
            with torch.enable_grad():
                outputs = ctx.run_function(*detached_inputs)
        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        outputs_with_grad, args_with_grad = [], []
        for out, grad in zip(outputs, args):
            if isinstance(out, Tensor) and out.requires_grad:
                outputs_with_grad.append(out)
                args_with_grad.append(grad)
        if not outputs_with_grad:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is not necessary")
        torch.autograd.backward(outputs_with_grad, args_with_grad)
        grads = tuple(inp.grad if isinstance(inp, Tensor) else None for inp in detached_inputs)
        return (None, None) + grads


def _default_meta_extractor(x: Tensor) -> dict:
    return {"shape": x.shape, "dtype": x.dtype, "device": x.device}


_allowed_determinism_checks_to_fns = {_DEFAULT_DETERMINISM_MODE: _default_meta_extractor, "none": lambda _: None}


class _Capture(Node):
    """Where the recomputed graph is cut: collects the gradient of each boundary edge (its k-th input)."""

    __slots__ = ()

    def apply(self, grads: list) -> tuple:
        self.grads = grads
        return ()


def _mismatch(what: str) -> CheckpointError:
    return CheckpointError(
        f"torch.utils.checkpoint: the recomputation of the checkpointed function recorded a different autograd "
        f"graph than its original forward ({what}). The function must run the same operations on tensors of the "
        "same requires_grad when it is recomputed."
    )


class CheckpointBackward(Node):
    """The node of a non-reentrant checkpointed region: recomputes it and backpropagates to its boundary."""

    def apply(self, grads: list) -> tuple:
        if self._released:
            raise RuntimeError(_FREED)
        n_out = len(self.roots)
        grads = list(grads) + [None] * (n_out - len(grads))
        n_in = len(self.next_functions)
        if all(g is None for g in grads):
            return (None,) * n_in
        create_graph = _C.is_grad_enabled()
        with self.rng.restored(), torch.enable_grad(), self.recompute_context:
            ret = self.function(*self.args, **self.kwargs)
        flat = _tensors_in(ret)
        if len(flat) <= max(self.positions):
            raise _mismatch(f"{len(flat)} tensor outputs instead of at least {max(self.positions) + 1}")
        outs = [flat[p] for p in self.positions]
        bad = [
            (i, m, self.metadata_fn(o)) for i, (o, m) in enumerate(zip(outs, self.out_meta)) if m != self.metadata_fn(o)
        ]
        if bad:
            raise CheckpointError(
                "torch.utils.checkpoint: Recomputed values for the following tensors have different metadata "
                "than during the forward pass.\n"
                + "".join(
                    f"tensor at position {i}:\nsaved metadata: {m}\nrecomputed metadata: {r}\n" for i, m, r in bad
                )
            )
        capture = _Capture()
        direct = [None] * n_in  # gradients of outputs whose own node is a boundary edge
        cuts = self._match(outs, capture)
        roots, root_grads = [], []
        for o, g, root in zip(outs, grads, self.roots):
            if g is None:
                continue
            if root[0] == "b":
                k = root[1]
                direct[k] = g if direct[k] is None else direct[k] + g
            else:
                roots.append(o)
                root_grads.append(g)
        originals = {}
        try:
            for node, slot, k in cuts:
                originals.setdefault(node, node.next_functions)
                cur = list(node.next_functions)
                cur[slot] = (capture, k)
                node.next_functions = tuple(cur)
            if roots:
                _engine.run_backward(roots, root_grads, create_graph, create_graph)
        finally:
            for node, nf in originals.items():
                node.next_functions = nf
        captured = getattr(capture, "grads", [])
        out = []
        for k in range(n_in):
            g = captured[k] if k < len(captured) else None
            if direct[k] is not None:
                g = direct[k] if g is None else g + direct[k]
            out.append(g)
        return tuple(out)

    def _match(self, outs: list, capture: Node) -> list:
        """Maps the recomputed graph onto the recorded structure; the (node, slot, k) where it must be cut."""
        mapped: dict = {}
        stack = []
        cuts = []

        def visit(j, node, nr, want_nr):
            if node is None or nr != want_nr:
                raise _mismatch(f"no edge where node {self.struct[j][0]} was recorded")
            seen = mapped.get(j)
            if seen is None:
                mapped[j] = node
                stack.append(j)
            elif seen is not node:
                raise _mismatch(f"node {self.struct[j][0]} recomputed twice")

        for o, root in zip(outs, self.roots):
            if root[0] == "in":
                m = o._autograd_meta
                node = None if m is None or not o.requires_grad else m.grad_fn
                visit(root[1], node, 0 if m is None else m.output_nr, root[2])
        while stack:
            j = stack.pop()
            node = mapped[j]
            name, slots = self.struct[j]
            nf = node.next_functions
            if type(node).__name__ != name or len(nf) != len(slots):
                raise _mismatch(f"{type(node).__name__} where {name} was recorded")
            for slot, (s, (nxt, nr)) in enumerate(zip(slots, nf)):
                if s is None:
                    if nxt is not None:
                        raise _mismatch(f"an input of {name} requires grad only in the recomputation")
                elif s[0] == "b":
                    if nxt is None:
                        raise _mismatch(f"an input of {name} requires grad only in the original forward")
                    cuts.append((node, slot, s[1]))
                else:
                    visit(s[1], nxt, nr, s[2])
        return cuts

    def _release(self) -> None:
        self._released = True
        for k in ("function", "args", "kwargs", "rng", "recompute_context"):
            self.__dict__.pop(k, None)


def _outputs_to_cut(flat: list, known: list, stop: set) -> list:
    """The positions in `flat` of the region's outputs produced by its own graph (each tensor once)."""
    positions, seen = [], set()
    for p, o in enumerate(flat):
        m = o._autograd_meta
        if o.requires_grad and m is not None and m.grad_fn is not None and id(m.grad_fn) not in stop:
            if id(o) not in seen and not any(o is t for t in known):
                positions.append(p)
                seen.add(id(o))
    return positions


def _record(outs: list, stop: set) -> tuple:
    """The region's graph from the outputs down to the nodes of arguments and leaves: the candidate inner
    nodes (weakly), their structure, the roots and the boundary edges met so far (strongly)."""
    index: dict = {}
    nodes, struct, bnodes, bindex = [], [], [], {}

    def ref(node, nr):
        if node is None:
            return None
        if type(node) is AccumulateGrad or id(node) in stop:
            key = (id(node), nr)
            if key not in bindex:
                bindex[key] = len(bnodes)
                bnodes.append((node, nr))
            return ("x", bindex[key])
        j = index.get(id(node))
        if j is None:
            j = index[id(node)] = len(nodes)
            nodes.append(node)
            struct.append(None)
        return ("c", j, nr)

    roots = [ref(o._autograd_meta.grad_fn, o._autograd_meta.output_nr) for o in outs]
    j = 0
    while j < len(nodes):
        node = nodes[j]
        struct[j] = (type(node).__name__, [ref(n, nr) for n, nr in node.next_functions])
        j += 1
    return [weakref.ref(n) for n in nodes], set(index), struct, roots, bnodes


def _rewire(outs: list, node: Node, inner_ids: set) -> dict:
    """Gives the outputs `node` as grad_fn; a view of an intermediate becomes a plain alias (its base would keep
    the inner graph alive). Returns {id(replaced output): alias}."""
    replaced = {}
    out_metas = {id(o._autograd_meta) for o in outs}
    for i, o in enumerate(outs):
        base = o._base
        bm = None if base is None else base._autograd_meta
        if bm is not None and id(bm) not in out_metas and bm.grad_fn is not None and id(bm.grad_fn) in inner_ids:
            alias = o.detach()
            replaced[id(o)] = alias
            o = alias
        set_history(o, node, i)
    return replaced


def _finish(weak: list, struct: list, roots: list, bnodes: list) -> tuple:
    """Candidates still alive are referenced from outside the region: they join the boundary. Returns the
    boundary edges, the inner structure (slots: None, ("in", j, nr) or ("b", k)) and the roots."""
    alive = [w() for w in weak]
    boundary, bpos, inner, fstruct = [], {}, {}, []

    def bnd(n, nr):
        key = (id(n), nr)
        if key not in bpos:
            bpos[key] = len(boundary)
            boundary.append((n, nr))
        return ("b", bpos[key])

    def conv(entry):
        if entry is None:
            return None
        if entry[0] == "x":
            return bnd(*bnodes[entry[1]])
        j, nr = entry[1], entry[2]
        if alive[j] is not None:
            return bnd(alive[j], nr)
        f = inner.get(j)
        if f is None:
            f = inner[j] = len(fstruct)
            fstruct.append(j)
        return ("in", f, nr)

    froots = [conv(r) for r in roots]
    k = 0
    while k < len(fstruct):
        j = fstruct[k]
        fstruct[k] = (struct[j][0], [conv(s) for s in struct[j][1]])
        k += 1
    return tuple(boundary), fstruct, froots


def _cut_region(box: list, args: tuple, kwargs: dict, function, rng, recompute_context, metadata_fn):
    """Replaces the graph the region recorded by one CheckpointBackward node (see the module's docstring);
    `box` holds the region's result (and only it: the caller must keep no other reference)."""
    ret = box.pop()
    known = _tensors_in((args, kwargs))
    stop_nodes = [edge(t)[0] for t in known if t.requires_grad]  # held: their ids must stay theirs
    stop = {id(n) for n in stop_nodes}
    flat = _tensors_in(ret)
    positions = _outputs_to_cut(flat, known, stop)
    if not positions:
        return ret
    outs = [flat[p] for p in positions]
    del flat
    weak, inner_ids, struct, roots, bnodes = _record(outs, stop)
    node = CheckpointBackward()
    out_meta = [metadata_fn(o) for o in outs]
    replaced = _rewire(outs, node, inner_ids)
    if replaced:
        ret = _replace_tensors(ret, replaced)
    del outs, replaced  # the region's graph is now referenced by nothing outside it: it goes
    node.next_functions, node.struct, node.roots = _finish(weak, struct, roots, bnodes)
    node.positions, node.out_meta, node.metadata_fn = positions, out_meta, metadata_fn
    node.function, node.args, node.kwargs = function, args, kwargs
    node.rng, node.recompute_context = rng, recompute_context
    del stop_nodes
    return ret


def _checkpoint_without_reentrant(
    function, preserve_rng_state, context_fn, determinism_check, debug, early_stop, *args, **kwargs
):
    """use_reentrant=False: runs `function` recording its graph, then cuts the graph out (see the docstring)."""
    if _checkpoint_debug_enabled if _checkpoint_debug_enabled is not None else debug:
        if context_fn is not noop_context_fn:
            raise ValueError("debug=True is incompatible with non-default context_fn")
    if determinism_check not in _allowed_determinism_checks_to_fns:
        raise ValueError(
            f"determinism_check should be one of {list(_allowed_determinism_checks_to_fns.keys())}, "
            f"but got {determinism_check}"
        )
    metadata_fn = _allowed_determinism_checks_to_fns[determinism_check]
    forward_context, recompute_context = context_fn()
    if not _C.is_grad_enabled():
        return function(*args, **kwargs)
    rng = _ForwardState(preserve_rng_state, args)
    ret = finished = None
    with forward_context:
        ret = function(*args, **kwargs)
        finished = True
    if finished is None:
        raise RuntimeError(
            "torch.utils.checkpoint: the forward context provided by "
            "context_fn suppressed an exception raised during the "
            "checkpointed forward. This is not supported because checkpoint "
            "cannot return a value for a failed forward."
        )
    box = [ret]
    del ret
    return _cut_region(box, args, kwargs, function, rng, recompute_context, metadata_fn)


def checkpoint(
    function,
    *args,
    use_reentrant: bool | None = None,
    context_fn=noop_context_fn,
    determinism_check: str = _DEFAULT_DETERMINISM_MODE,
    debug: bool = False,
    early_stop: bool = True,
    **kwargs,
):
    """Checkpoints `function(*args, **kwargs)`: its intermediate results are not kept for backward but
    recomputed there (with the forward's RNG state unless preserve_rng_state=False).

    use_reentrant should be passed explicitly (without it: a warning, and True, as upstream); False is
    recommended: it supports keyword arguments, torch.autograd.grad, inputs that do not require grad and
    context_fn (two context managers: for the forward and for the recomputation). determinism_check
    ("default" or "none") compares the recomputed outputs' shapes, dtypes and devices with the forward's.
    debug and early_stop are accepted (our recomputation always reruns the whole function).
    """
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint: the use_reentrant parameter should be "
            "passed explicitly. Starting in PyTorch 2.9, calling checkpoint "
            "without use_reentrant will raise an exception. use_reentrant=False is "
            "recommended, but if you need to preserve the current default "
            "behavior, you can pass use_reentrant=True. Refer to docs for more "
            "details on the differences between the two variants.",
            stacklevel=2,
        )
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    if use_reentrant:
        if context_fn is not noop_context_fn or debug is not False:
            raise ValueError("Passing `context_fn` or `debug` is only supported when use_reentrant=False.")
        return CheckpointFunction.apply(function, preserve, *args)
    return _checkpoint_without_reentrant(
        function, preserve, context_fn, determinism_check, debug, early_stop, *args, **kwargs
    )


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):
    """Runs `functions` (a Sequential or a list of modules/functions) on `input` in `segments` chunks, each
    but the last checkpointed (preserve_rng_state as for checkpoint)."""
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant "
            "parameter should be passed explicitly. "
            "In version 2.9 we will raise an exception if use_reentrant "
            "is not passed. use_reentrant=False is "
            "recommended, but if you need to preserve the current default "
            "behavior, you can pass use_reentrant=True. Refer to docs for more "
            "details on the differences between the two variants.",
            stacklevel=2,
        )
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))

    def run_function(start, end, functions):
        def forward(input):
            for j in range(start, end + 1):
                input = functions[j](input)
            return input

        return forward

    if isinstance(functions, torch.nn.Sequential):
        functions = list(functions.children())
    segment_size = len(functions) // segments
    end = -1
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        input = checkpoint(
            run_function(start, end, functions), input, use_reentrant=use_reentrant, preserve_rng_state=preserve
        )
    return run_function(end + 1, len(functions) - 1, functions)(input)
