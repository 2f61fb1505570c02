"""The one way to add a Python function or method to torch: the @register decorator.

Where a function goes is declared next to it:

    @register                                 torch.square (and so in torch.__all__)
    @register(method=True)                    torch.square and Tensor.square
    @register(method=True, inplace=True)      also Tensor.bitwise_left_shift_, the checked in-place form
    @register(aliases=("clip",))              torch.clamp and torch.clip
    @register(function=False, method=True)    Tensor.item only
    register(Tensor.neg, name="__neg__", function=False, method=True)   an existing callable or value

Registering only records. torch/__init__.py imports the modules that register (torch/_refs/,
_tensor.py, _tensor_str.py, _type_info.py, autograd/tensor_api.py), then calls install() once. A name
is registered once: a second registration is an error, so no two modules shadow each other by
accident; a registered name does replace the generated binding of torch._C with that name (that is
how a composite such as torch.clamp extends an op).
"""

from __future__ import annotations

from torch import _C
from torch._C import can_cast
from torch._dtypes import scalar_type

FUNCTIONS: dict[str, object] = {}  # torch.<name>
METHODS: dict[str, object] = {}  # torch.Tensor.<name>
_installed = False


def _put(table: dict, name: str, obj) -> None:
    if _installed:
        raise RuntimeError(
            f"torch._registry: {name!r} is registered after install(); import its module in torch/__init__.py"
        )
    if name in table:
        raise RuntimeError(f"torch._registry: {name!r} is registered twice ({table[name]!r} and {obj!r})")
    table[name] = obj


_DECORATOR = object()  # register's obj when it is used as a decorator with arguments (a value may be None)


def register(
    obj=_DECORATOR,
    /,
    *,
    name=None,
    function=True,
    method=False,
    inplace=False,
    aliases=(),
    numbers=True,
    out=None,
    ints=True,
):
    """Registers obj (a function, class, property or value) under its __name__ (or `name`) and each of
    `aliases`: as torch.<name> unless function=False, as the method Tensor.<name> with method=True, and
    with inplace=True also as Tensor.<name>_, its checked in-place form (in_place). numbers=False: the
    parameters annotated `Tensor` take tensors only (upstream has no Scalar overload: a number is its
    TypeError), as `numbers: False` in native_functions.yaml. ints=False: its int-annotated parameters take a
    bool too (upstream's Python-level functions: ints_only is for those upstream's parser checks). out="castable"
    or "exact": the function also
    takes upstream's keyword out= (torch/_out.py's rules; the method and the in-place form do not). Returns
    obj: a decorator with or without arguments."""

    def add(obj):
        own = name or (obj.fget if isinstance(obj, property) else obj).__name__
        if not numbers:
            obj = tensors_only(obj, own)
        plain = numpy_names(ints_only(obj, own, first=0) if ints else obj)  # the method and in-place form: no out=
        obj = ints_only(obj, own) if ints else obj
        if out is not None:
            from torch._out import with_out  # noqa: PLC0415

            obj = numpy_names(with_out(own, out)(obj))
        else:
            obj = numpy_names(obj)
        for n in (own, *aliases):
            if function:
                _put(FUNCTIONS, n, obj)
            if method:
                _put(METHODS, n, plain)
        if inplace:
            _put(METHODS, own + "_", in_place(plain, own + "_"))
        return obj

    return add if obj is _DECORATOR else add(obj)


# NumPy's names that PyTorch's argument parser also accepts for these arguments (the generated bindings get
# them as a second overload: tools/codegen/bindings.py's NUMPY_NAMES)
NUMPY_NAMES = {"axis": "dim", "keepdims": "keepdim"}


def numpy_names(fn):
    """fn, accepting axis= for its dim= and keepdims= for its keepdim= (as PyTorch's parser does), when it has
    those parameters; anything else as it is."""
    import functools  # noqa: PLC0415
    import inspect  # noqa: PLC0415

    if not inspect.isfunction(fn):
        return fn
    params = inspect.signature(fn).parameters
    names = {alias: own for alias, own in NUMPY_NAMES.items() if own in params}
    if not names or any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return fn

    @functools.wraps(fn)
    def accepting_numpy_names(*args, **kwargs):
        for alias, own in names.items():
            if alias in kwargs:
                if own in kwargs:
                    raise TypeError(f"{fn.__name__}() got both {own}= and its alias {alias}=")
                kwargs[own] = kwargs.pop(alias)
        return fn(*args, **kwargs)

    return accepting_numpy_names


def tensors_only(fn, name: str):
    """fn, raising upstream's TypeError ("fmax(): argument 'other' (position 2) must be Tensor, not int")
    when a parameter annotated `Tensor` gets anything else."""
    import functools  # noqa: PLC0415
    import inspect  # noqa: PLC0415

    from torch._C import Tensor  # noqa: PLC0415

    checked = [
        (i, p.name)
        for i, p in enumerate(inspect.signature(fn).parameters.values())
        if p.annotation in ("Tensor", Tensor)
    ]

    missing = object()  # a parameter left to its default

    @functools.wraps(fn)
    def taking_tensors(*args, **kwargs):
        for i, n in checked:
            v = args[i] if i < len(args) else kwargs.get(n, missing)
            if v is not missing and not isinstance(v, Tensor):
                raise TypeError(f"{name}(): argument '{n}' (position {i + 1}) must be Tensor, not {type(v).__name__}")
        return fn(*args, **kwargs)

    return taking_tensors


_NOT_INTS = ("bool", "float", "Number", "Scalar", "Any", "complex", "Tensor", "object")


def ints_only(fn, name: str, first: int = 1):
    """fn, raising upstream's TypeError ("diagonal(): argument 'offset' (position 2) must be int, not bool") when
    a parameter annotated as an int (`int`, `int | None`, `int | Sequence[int]`, ...) gets a bool, as the
    generated bindings' torch::Int does; fn itself where it has no such parameter. `first`: the position the
    message gives the first parameter (0 for a method, whose self upstream does not count)."""
    import functools  # noqa: PLC0415
    import inspect  # noqa: PLC0415

    if not inspect.isfunction(fn):
        return fn
    checked = [
        (i, p.name)
        for i, p in enumerate(inspect.signature(fn).parameters.values())
        if isinstance(p.annotation, str)
        and "int" in p.annotation.replace("Sequence[int]", "int").split(" | ")
        and not any(t in p.annotation for t in _NOT_INTS)
    ]
    if not checked:
        return fn

    @functools.wraps(fn)
    def taking_ints(*args, **kwargs):
        for i, n in checked:
            positional = i < len(args)
            v = args[i] if positional else kwargs.get(n)
            if v is True or v is False:  # (upstream names the position of a positional argument only)
                where = f" (position {i + first})" if positional else ""
                raise TypeError(f"{name}(): argument '{n}'{where} must be int, not bool")
        return fn(*args, **kwargs)

    return taking_ints


def in_place(fn, name: str):
    """The in-place form of fn as a method: self is overwritten with fn(self, ...), whose result must
    have self's shape and cast to self's dtype (PyTorch's rules for in-place ops)."""

    def method(self, *args, **kwargs):
        if self.requires_grad and _C.is_grad_enabled():
            # the composite's graph may save self (or an argument that is self), which the copy_ below then
            # overwrites: it computes on a copy, so its backward reads the values it saw (upstream's native
            # in-place kernels save what they need themselves)
            copy = self.clone()
            args = tuple(copy if a is self else a for a in args)
            result = fn(copy, *args, **kwargs)
        else:
            result = fn(self, *args, **kwargs)
        if result.shape != self.shape:  # checked here: copy_ into an empty self checks nothing (as upstream's)
            raise RuntimeError(
                f"output with shape {list(self.shape)} doesn't match the broadcast shape {list(result.shape)}"
            )
        if not can_cast(result.dtype, self.dtype):
            raise RuntimeError(
                f"result type {scalar_type(result.dtype)} can't be cast to the desired output type "
                f"{scalar_type(self.dtype)}"
            )
        return self.copy_(result)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"In-place {fn.__name__}: self is overwritten with the result."
    return method


def install(namespace: dict, tensor: type) -> None:
    """Puts every registered function into `namespace` (torch's globals) and every method on `tensor`
    (torch.Tensor). Called once, by torch/__init__.py."""
    global _installed
    namespace.update(FUNCTIONS)
    for name, obj in METHODS.items():
        setattr(tensor, name, obj)
    _installed = True


def instrument(namespace: dict, tensor: type, wrap) -> object:
    """Replaces every public function of `namespace` (torch's globals) and every method of `tensor` (the
    registered and generated ones, operator dunders included) with wrap(name, fn); returns the callable that
    puts the originals back. What torch.profiler uses to time each op called from Python while it profiles."""
    saved_functions = {}
    saved_methods = {}
    for name, fn in list(namespace.items()):
        if name.startswith("_") or isinstance(fn, type) or not callable(fn) or type(fn).__name__ == "module":
            continue
        saved_functions[name] = fn
        namespace[name] = wrap(name, fn)
    for name in dir(tensor):
        if name.startswith("_") and name not in _OPERATOR_DUNDERS:
            continue
        fn = tensor.__dict__.get(name)
        if fn is None or isinstance(fn, (property, type, staticmethod, classmethod)) or not callable(fn):
            continue
        saved_methods[name] = fn
        setattr(tensor, name, wrap(name, fn))

    def restore() -> None:
        namespace.update(saved_functions)
        for name, fn in saved_methods.items():
            setattr(tensor, name, fn)

    return restore


def wrap(namespace: dict, tensor: type, functions, methods, wrapper) -> None:
    """Replaces the named functions of `namespace` (torch's globals) and methods of `tensor` with
    wrapper(name, fn), for good (torch/_refs/deterministic_fill.py's factories, at import)."""
    for name in functions:
        namespace[name] = wrapper(name, namespace[name])
    for name in methods:
        setattr(tensor, name, wrapper(name, tensor.__dict__[name]))


_OPERATOR_DUNDERS = frozenset(
    f"__{op}__"
    for base in (
        "add",
        "sub",
        "mul",
        "truediv",
        "floordiv",
        "mod",
        "pow",
        "matmul",
        "and",
        "or",
        "xor",
        "lshift",
        "rshift",
    )
    for op in (base, "r" + base, "i" + base)
) | frozenset(
    (
        "__neg__",
        "__abs__",
        "__invert__",
        "__getitem__",
        "__setitem__",
        "__eq__",
        "__ne__",
        "__lt__",
        "__le__",
        "__gt__",
        "__ge__",
    )
)
