"""torch.func: composable function transforms (upstream's functorch API) on top of reverse-mode autograd.

grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian and linearize differentiate functions of
tensors (pytrees of them); vmap maps a function over a dimension of its inputs; functional_call and
stack_module_state turn modules into functions of their parameters. They compose: per-sample gradients
are ``vmap(grad(lambda p, x, y: loss(functional_call(model, p, (x,)), y)), in_dims=(None, 0, 0))``.

Differences from upstream, by construction: there is no forward-mode AD (jvp/linearize use the
double-vjp trick, jacfwd computes by reverse mode), no batching rules (vmap runs func once per batch
entry and stacks the results) and no functionalization pass (functionalize(f) behaves as f).
"""

from torch.func._batch_norm import replace_all_batch_norm_modules_
from torch.func._functional_call import functional_call, stack_module_state
from torch.func._transforms import (
    debug_unwrap,
    functionalize,
    grad,
    grad_and_value,
    hessian,
    jacfwd,
    jacrev,
    jvp,
    linearize,
    vjp,
)
from torch.func._vmap import vmap

__all__ = [
    "grad",
    "grad_and_value",
    "vmap",
    "replace_all_batch_norm_modules_",
    "functionalize",
    "hessian",
    "jacfwd",
    "jacrev",
    "jvp",
    "linearize",
    "vjp",
    "functional_call",
    "stack_module_state",
    "debug_unwrap",
]
