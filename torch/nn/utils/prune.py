r"""Pruning methods: reparameterize a module's parameter ``name`` as ``name_orig * name_mask``.

Pruning ``module.<name>`` moves the parameter to ``module.<name>_orig``, registers the binary mask as the buffer
``module.<name>_mask`` and installs the pruning method as a forward pre-hook that recomputes the plain tensor
attribute ``module.<name> = <name>_orig * <name>_mask`` before every forward. Pruning the same tensor again
combines the methods in a :class:`PruningContainer`: the new method acts only on the units (entries or channels)
that the current mask keeps. :func:`remove` makes the pruning permanent (the parameter ``<name>`` holds the
pruned values again and the reparameterization is gone).

As upstream, ``torch.nn.utils.prune`` is a submodule: ``from torch.nn.utils import prune``.
"""

import numbers
from abc import ABC, abstractmethod
from collections.abc import Iterable

import torch
from torch.nn.utils.convert_parameters import parameters_to_vector

__all__ = [
    "BasePruningMethod",
    "PruningContainer",
    "Identity",
    "RandomUnstructured",
    "L1Unstructured",
    "RandomStructured",
    "LnStructured",
    "CustomFromMask",
    "identity",
    "random_unstructured",
    "l1_unstructured",
    "random_structured",
    "ln_structured",
    "global_unstructured",
    "custom_from_mask",
    "remove",
    "is_pruned",
]


class BasePruningMethod(ABC):
    r"""Abstract base class for creation of new pruning techniques.

    Subclasses define ``PRUNING_TYPE`` (``'unstructured'``, ``'structured'`` or ``'global'``), override
    :meth:`compute_mask` and usually :meth:`apply` (to name their arguments).
    """

    _tensor_name: str

    def __call__(self, module, inputs):
        r"""The forward pre-hook: store ``module.<name>_orig * module.<name>_mask`` as ``module.<name>``.

        Args:
            module (nn.Module): module containing the tensor to prune
            inputs: not used.
        """
        setattr(module, self._tensor_name, self.apply_mask(module))

    @abstractmethod
    def compute_mask(self, t, default_mask):
        r"""Compute and return a mask for the input tensor ``t``.

        Starting from a base ``default_mask`` (a mask of ones if the tensor has not been pruned yet), generate
        a mask to apply on top of ``default_mask`` according to the pruning method's recipe.

        Args:
            t (torch.Tensor): tensor representing the importance scores of the parameter to prune.
            default_mask (torch.Tensor): base mask from previous pruning iterations, which must be respected
                after the new mask is applied. Same dims as ``t``.

        Returns:
            mask (torch.Tensor): mask to apply to ``t``, of same dims as ``t``
        """

    def apply_mask(self, module):
        r"""Return the pruned tensor: the module's mask (``<name>_mask``) times its original (``<name>_orig``).

        Args:
            module (nn.Module): module containing the tensor to prune

        Returns:
            pruned_tensor (torch.Tensor): pruned version of the input tensor
        """
        # the pruning method must know which tensor it acts on (set in apply())
        if self._tensor_name is None:
            raise AssertionError(f"Module {module} has to be pruned")
        mask = getattr(module, self._tensor_name + "_mask")
        orig = getattr(module, self._tensor_name + "_orig")
        pruned_tensor = mask.to(dtype=orig.dtype) * orig
        return pruned_tensor

    @classmethod
    def apply(cls, module, name, *args, importance_scores=None, **kwargs):
        r"""Add pruning on the fly and the reparameterization of a tensor.

        Adds the forward pre-hook that enables pruning on the fly and the reparameterization of a tensor in
        terms of the original tensor and the pruning mask. If ``module.<name>`` is pruned already, the new
        method is combined with the existing one(s) in a :class:`PruningContainer`.

        Args:
            module (nn.Module): module containing the tensor to prune
            name (str): parameter name within ``module`` on which pruning will act.
            args: arguments passed on to a subclass of :class:`BasePruningMethod`
            importance_scores (torch.Tensor): tensor of importance scores (of same shape as the module
                parameter) used to compute the mask. If unspecified or None, the parameter is used in its place.
            kwargs: keyword arguments passed on to a subclass of :class:`BasePruningMethod`

        Returns:
            the pruning method (or container) installed as the forward pre-hook.
        """

        def _get_composite_method(cls, module, name, *args, **kwargs):
            # a pruning method already applied to `module.<name>` becomes `old_method` (its hook is removed)
            old_method = None
            found = 0
            hooks_to_remove = []
            for k, hook in module._forward_pre_hooks.items():
                if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
                    old_method = hook
                    hooks_to_remove.append(k)
                    found += 1
            if found > 1:
                raise AssertionError(
                    f"Avoid adding multiple pruning hooks to the same tensor {name} of module {module}. "
                    "Use a PruningContainer."
                )

            for k in hooks_to_remove:
                del module._forward_pre_hooks[k]

            method = cls(*args, **kwargs)
            method._tensor_name = name

            if old_method is not None:
                if isinstance(old_method, PruningContainer):
                    old_method.add_pruning_method(method)
                    method = old_method
                elif isinstance(old_method, BasePruningMethod):
                    container = PruningContainer(old_method)
                    container.add_pruning_method(method)
                    method = container
            return method

        method = _get_composite_method(cls, module, name, *args, **kwargs)

        orig = getattr(module, name)
        if importance_scores is not None:
            if importance_scores.shape != orig.shape:
                raise AssertionError(
                    f"importance_scores should have the same shape as parameter "
                    f"{name} of {module}, got {importance_scores.shape} vs {orig.shape}"
                )
        else:
            importance_scores = orig

        # first pruning of this tensor: move the parameter to `<name>_orig`
        if not isinstance(method, PruningContainer):
            module.register_parameter(name + "_orig", orig)
            del module._parameters[name]
            default_mask = torch.ones_like(orig)
        # iterative pruning: the reparameterization is there, start from the current mask
        else:
            default_mask = getattr(module, name + "_mask").detach().clone(memory_format=torch.contiguous_format)

        # roll back the reparameterization if computing or applying the mask fails
        try:
            mask = method.compute_mask(importance_scores, default_mask=default_mask)
            module.register_buffer(name + "_mask", mask)
            setattr(module, name, method.apply_mask(module))
            module.register_forward_pre_hook(method)
        except Exception as e:
            if not isinstance(method, PruningContainer):
                orig = getattr(module, name + "_orig")
                module.register_parameter(name, orig)
                del module._parameters[name + "_orig"]
            raise e

        return method

    def prune(self, t, default_mask=None, importance_scores=None):
        r"""Compute and return a pruned version of the input tensor ``t`` by the rule of :meth:`compute_mask`.

        Args:
            t (torch.Tensor): tensor to prune (of same dimensions as ``default_mask``).
            default_mask (torch.Tensor, optional): mask from the previous pruning iteration, if any. If None,
                a mask of ones.
            importance_scores (torch.Tensor): tensor of importance scores (of same shape as ``t``) used to compute
                the mask. If unspecified or None, ``t`` is used in its place.

        Returns:
            pruned version of tensor ``t``.
        """
        if importance_scores is not None:
            if importance_scores.shape != t.shape:
                raise AssertionError(
                    f"importance_scores should have the same shape as tensor t, "
                    f"got {importance_scores.shape} vs {t.shape}"
                )
        else:
            importance_scores = t
        default_mask = default_mask if default_mask is not None else torch.ones_like(t)
        return t * self.compute_mask(importance_scores, default_mask=default_mask)

    def remove(self, module) -> None:
        r"""Remove the pruning reparameterization from a module (the forward pre-hook is left to the caller).

        The pruned parameter named ``name`` remains permanently pruned, and the parameter named
        ``name+'_orig'`` is removed from the parameter list. Similarly, the buffer named ``name+'_mask'`` is
        removed from the buffers.

        Note:
            Pruning itself is NOT undone or reversed!
        """
        if self._tensor_name is None:
            raise AssertionError(f"Module {module} has to be pruned before pruning can be removed")

        # masked weights, from the latest values of the original
        weight = self.apply_mask(module)

        if hasattr(module, self._tensor_name):
            delattr(module, self._tensor_name)
        orig = module._parameters[self._tensor_name + "_orig"]
        orig.data = weight.data
        del module._parameters[self._tensor_name + "_orig"]
        del module._buffers[self._tensor_name + "_mask"]
        setattr(module, self._tensor_name, orig)


class PruningContainer(BasePruningMethod):
    """Container holding a sequence of pruning methods for iterative pruning.

    Keeps track of the order in which pruning methods are applied and handles combining successive pruning
    calls. Accepts as argument an instance of a BasePruningMethod or an iterable of them.
    """

    def __init__(self, *args) -> None:
        self._pruning_methods: tuple[BasePruningMethod, ...] = ()
        if not isinstance(args, Iterable):  # only 1 item
            self._tensor_name = args._tensor_name
            self.add_pruning_method(args)
        elif len(args) == 1:  # only 1 item in a tuple
            self._tensor_name = args[0]._tensor_name
            self.add_pruning_method(args[0])
        else:  # manual construction from list or other iterable (or no args)
            for method in args:
                self.add_pruning_method(method)

    def add_pruning_method(self, method) -> None:
        r"""Add a child pruning ``method`` to the container.

        Args:
            method (subclass of BasePruningMethod): child pruning method to be added to the container.
        """
        if not isinstance(method, BasePruningMethod) and method is not None:
            raise TypeError(f"{type(method)} is not a BasePruningMethod subclass")
        elif method is not None and self._tensor_name != method._tensor_name:
            raise ValueError(
                "Can only add pruning methods acting on "
                f"the parameter named '{self._tensor_name}' to PruningContainer {self}."
                + f" Found '{method._tensor_name}'"
            )
        self._pruning_methods += (method,)

    def __len__(self) -> int:
        """The number of pruning methods in the container."""
        return len(self._pruning_methods)

    def __iter__(self):
        """Iterate over the pruning methods, oldest first."""
        return iter(self._pruning_methods)

    def __getitem__(self, idx):
        """The pruning method(s) at ``idx``."""
        return self._pruning_methods[idx]

    def compute_mask(self, t, default_mask):
        r"""Apply the latest method: compute its partial mask and combine it with ``default_mask``.

        The new partial mask is computed on the entries or channels that ``default_mask`` has not zeroed out,
        according to the latest method's ``PRUNING_TYPE``:

        * ``'unstructured'``: from the raveled list of nonmasked entries;
        * ``'structured'``: from the nonmasked channels of the tensor (along the method's ``dim``);
        * ``'global'``: across all entries.

        Args:
            t (torch.Tensor): tensor representing the parameter to prune (of same dimensions as
                ``default_mask``).
            default_mask (torch.Tensor): mask from the previous pruning iteration.

        Returns:
            mask (torch.Tensor): new mask combining ``default_mask`` and the mask of the latest method (of same
            dimensions as ``default_mask`` and ``t``).
        """

        def _combine_masks(method, t, mask):
            new_mask = mask.to(dtype=t.dtype)

            # the slice of t on which the new pruning method operates
            if method.PRUNING_TYPE == "unstructured":
                # entries of t where the mask is 1
                slc = mask == 1
            elif method.PRUNING_TYPE == "structured":
                if not hasattr(method, "dim"):
                    raise AttributeError(
                        'Pruning methods of PRUNING_TYPE "structured" need to have the attribute `dim` defined.'
                    )
                # the channels along `dim` that are not entirely zeroed out already
                n_dims = t.dim()
                dim = method.dim
                if dim < 0:
                    dim = n_dims + dim
                if dim < 0:
                    raise IndexError(f"Index is out of bounds for tensor with dimensions {n_dims}")
                keep_channel = mask.sum(dim=[d for d in range(n_dims) if d != dim]) != 0
                slc = [slice(None)] * n_dims
                slc[dim] = keep_channel
            elif method.PRUNING_TYPE == "global":
                n_dims = len(t.shape)
                slc = [slice(None)] * n_dims
            else:
                raise ValueError(f"Unrecognized PRUNING_TYPE {method.PRUNING_TYPE}")

            # the new mask, computed on the unpruned slice of t
            if isinstance(slc, list):
                slc = tuple(slc)
            partial_mask = method.compute_mask(t[slc], default_mask=mask[slc])
            new_mask[slc] = partial_mask.to(dtype=new_mask.dtype)
            return new_mask

        method = self._pruning_methods[-1]
        mask = _combine_masks(method, t, default_mask)
        return mask


class Identity(BasePruningMethod):
    r"""Utility pruning method that prunes no units but sets up the pruning reparameterization (a mask of ones)."""

    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t, default_mask):
        """Return ``default_mask`` unchanged."""
        mask = default_mask
        return mask

    @classmethod
    def apply(cls, module, name):
        r"""Add the pruning reparameterization of ``module.<name>`` without pruning any unit.

        Args:
            module (nn.Module): module containing the tensor to prune
            name (str): parameter name within ``module`` on which pruning will act.
        """
        return super().apply(module, name)


class RandomUnstructured(BasePruningMethod):
    r"""Prune (currently unpruned) units in a tensor at random.

    Args:
        amount (int or float): quantity of parameters to prune. If ``float``, should be between 0.0 and 1.0 and
            represent the fraction of parameters to prune. If ``int``, it represents the absolute number of
            parameters to prune.
    """

    PRUNING_TYPE = "unstructured"

    def __init__(self, amount) -> None:
        _validate_pruning_amount_init(amount)
        self.amount = amount

    def compute_mask(self, t, default_mask):
        """Zero ``amount`` entries of ``default_mask`` (a copy) chosen uniformly at random among those of ``t``."""
        tensor_size = t.nelement()
        nparams_toprune = _compute_nparams_toprune(self.amount, tensor_size)
        _validate_pruning_amount(nparams_toprune, tensor_size)

        mask = default_mask.clone(memory_format=torch.contiguous_format)

        if nparams_toprune != 0:  # k=0 not supported by torch.kthvalue
            prob = torch.rand_like(t)
            topk = torch.topk(prob.view(-1), k=nparams_toprune)
            mask.view(-1)[topk.indices] = 0

        return mask

    @classmethod
    def apply(cls, module, name, amount):
        r"""Prune ``module.<name>`` with :class:`RandomUnstructured` (on top of earlier pruning, if any).

        Args:
            module (nn.Module): module containing the tensor to prune
            name (str): parameter name within ``module`` on which pruning will act.
            amount (int or float): quantity of parameters to prune (fraction if ``float``, count if ``int``).
        """
        return super().apply(module, name, amount=amount)


class L1Unstructured(BasePruningMethod):
    r"""Prune (currently unpruned) units in a tensor by zeroing out the ones with the lowest L1-norm.

    Args:
        amount (int or float): quantity of parameters to prune. If ``float``, should be between 0.0 and 1.0 and
            represent the fraction of parameters to prune. If ``int``, it represents the absolute number of
            parameters to prune.
    """

    PRUNING_TYPE = "unstructured"

    def __init__(self, amount) -> None:
        _validate_pruning_amount_init(amount)
        self.amount = amount

    def compute_mask(self, t, default_mask):
        """Zero the entries of ``default_mask`` (a copy) where ``|t|`` is among the ``amount`` smallest."""
        tensor_size = t.nelement()
        nparams_toprune = _compute_nparams_toprune(self.amount, tensor_size)
        _validate_pruning_amount(nparams_toprune, tensor_size)

        mask = default_mask.clone(memory_format=torch.contiguous_format)

        if nparams_toprune != 0:  # k=0 not supported by torch.kthvalue
            # prune the smallest k
            topk = torch.topk(torch.abs(t).view(-1), k=nparams_toprune, largest=False)
            mask.view(-1)[topk.indices] = 0

        return mask

    @classmethod
    def apply(cls, module, name, amount, importance_scores=None):
        r"""Prune ``module.<name>`` with :class:`L1Unstructured` (on top of earlier pruning, if any).

        Args:
            module (nn.Module): module containing the tensor to prune
            name (str): parameter name within ``module`` on which pruning will act.
            amount (int or float): quantity of parameters to prune (fraction if ``float``, count if ``int``).
            importance_scores (torch.Tensor): tensor of importance scores (of same shape as the module
                parameter) used to compute the mask. If unspecified or None, the parameter is used in its place.
        """
        return super().apply(module, name, amount=amount, importance_scores=importance_scores)


class RandomStructured(BasePruningMethod):
    r"""Prune entire (currently unpruned) channels in a tensor at random.

    Args:
        amount (int or float): quantity of channels to prune. If ``float``, should be between 0.0 and 1.0 and
            represent the fraction of channels to prune. If ``int``, it represents the absolute number of
            channels to prune.
        dim (int, optional): index of the dim along which we define channels to prune. Default: -1.
    """

    PRUNING_TYPE = "structured"

    def __init__(self, amount, dim=-1) -> None:
        _validate_pruning_amount_init(amount)
        self.amount = amount
        self.dim = dim

    def compute_mask(self, t, default_mask):
        r"""Compute a mask zeroing out ``amount`` random channels of ``t`` along ``dim``, times ``default_mask``.

        Args:
            t (torch.Tensor): tensor representing the parameter to prune
            default_mask (torch.Tensor): base mask from previous pruning iterations, which must be respected
                after the new mask is applied. Same dims as ``t``.

        Returns:
            mask (torch.Tensor): mask to apply to ``t``, of same dims as ``t``

        Raises:
            IndexError: if ``self.dim >= len(t.shape)``
        """
        _validate_structured_pruning(t)
        _validate_pruning_dim(t, self.dim)

        tensor_size = t.shape[self.dim]
        nparams_toprune = _compute_nparams_toprune(self.amount, tensor_size)
        _validate_pruning_amount(nparams_toprune, tensor_size)

        def make_mask(t, dim, nchannels, nchannels_toprune):
            # a random number in [0, 1) per channel; the k lowest get pruned
            prob = torch.rand(nchannels)
            threshold = torch.kthvalue(prob, k=nchannels_toprune).values
            channel_mask = prob > threshold

            mask = torch.zeros_like(t)
            slc = [slice(None)] * len(t.shape)
            slc[dim] = channel_mask
            slc = tuple(slc)
            mask[slc] = 1
            return mask

        if nparams_toprune == 0:  # k=0 not supported by torch.kthvalue
            mask = default_mask
        else:
            # the new structured mask on top of the prior (possibly unstructured) mask
            mask = make_mask(t, self.dim, tensor_size, nparams_toprune)
            mask *= default_mask.to(dtype=mask.dtype)
        return mask

    @classmethod
    def apply(cls, module, name, amount, dim=-1):
        r"""Prune ``module.<name>`` with :class:`RandomStructured` (on top of earlier pruning, if any).

        Args:
            module (nn.Module): module containing the tensor to prune
            name (str): parameter name within ``module`` on which pruning will act.
            amount (int or float): quantity of channels to prune (fraction if ``float``, count if ``int``).
            dim (int, optional): index of the dim along which we define channels to prune. Default: -1.
        """
        return super().apply(module, name, amount=amount, dim=dim)


class LnStructured(BasePruningMethod):
    r"""Prune entire (currently unpruned) channels in a tensor based on their L\ ``n``-norm.

    Args:
        amount (int or float): quantity of channels to prune. If ``float``, should be between 0.0 and 1.0 and
            represent the fraction of channels to prune. If ``int``, it represents the absolute number of
            channels to prune.
        n (int, float, inf, -inf, 'fro', 'nuc'): See documentation of valid entries for argument ``p`` in
            :func:`torch.norm`.
        dim (int, optional): index of the dim along which we define channels to prune. Default: -1.
    """

    PRUNING_TYPE = "structured"

    def __init__(self, amount, n, dim=-1) -> None:
        _validate_pruning_amount_init(amount)
        self.amount = amount
        self.n = n
        self.dim = dim

    def compute_mask(self, t, default_mask):
        r"""Compute a mask zeroing out the ``amount`` channels of lowest L\ ``n``-norm along ``dim``.

        The result is multiplied by ``default_mask``.

        Args:
            t (torch.Tensor): tensor representing the parameter to prune
            default_mask (torch.Tensor): base mask from previous pruning iterations, which must be respected
                after the new mask is applied. Same dims as ``t``.

        Returns:
            mask (torch.Tensor): mask to apply to ``t``, of same dims as ``t``

        Raises:
            IndexError: if ``self.dim >= len(t.shape)``
        """
        _validate_structured_pruning(t)
        _validate_pruning_dim(t, self.dim)

        tensor_size = t.shape[self.dim]
        nparams_toprune = _compute_nparams_toprune(self.amount, tensor_size)
        nparams_tokeep = tensor_size - nparams_toprune
        _validate_pruning_amount(nparams_toprune, tensor_size)

        # keep the channels with the largest L_n norm along dim
        norm = _compute_norm(t, self.n, self.dim)
        topk = torch.topk(norm, k=nparams_tokeep, largest=True)

        def make_mask(t, dim, indices):
            # ones at the kept indices along dim, zeros elsewhere
            mask = torch.zeros_like(t)
            slc = [slice(None)] * len(t.shape)
            slc[dim] = indices
            slc = tuple(slc)
            mask[slc] = 1
            return mask

        if nparams_toprune == 0:  # k=0 not supported by torch.kthvalue
            mask = default_mask
        else:
            mask = make_mask(t, self.dim, topk.indices)
            mask *= default_mask.to(dtype=mask.dtype)

        return mask

    @classmethod
    def apply(cls, module, name, amount, n, dim, importance_scores=None):
        r"""Prune ``module.<name>`` with :class:`LnStructured` (on top of earlier pruning, if any).

        Args:
            module (nn.Module): module containing the tensor to prune
            name (str): parameter name within ``module`` on which pruning will act.
            amount (int or float): quantity of channels to prune (fraction if ``float``, count if ``int``).
            n (int, float, inf, -inf, 'fro', 'nuc'): See documentation of valid entries for argument ``p`` in
                :func:`torch.norm`.
            dim (int): index of the dim along which we define channels to prune.
            importance_scores (torch.Tensor): tensor of importance scores (of same shape as the module
                parameter) used to compute the mask. If unspecified or None, the parameter is used in its place.
        """
        return super().apply(
            module,
            name,
            amount=amount,
            n=n,
            dim=dim,
            importance_scores=importance_scores,
        )


class CustomFromMask(BasePruningMethod):
    r"""Prune with a pre-computed ``mask`` (of the tensor's shape), combined with earlier pruning's mask."""

    PRUNING_TYPE = "global"

    def __init__(self, mask) -> None:
        self.mask = mask

    def compute_mask(self, t, default_mask):
        """Return ``default_mask * mask``."""
        if default_mask.shape != self.mask.shape:
            raise AssertionError(
                f"default_mask shape {default_mask.shape} must match self.mask shape {self.mask.shape}"
            )
        mask = default_mask * self.mask.to(dtype=default_mask.dtype)
        return mask

    @classmethod
    def apply(cls, module, name, mask):
        r"""Prune ``module.<name>`` with the pre-computed ``mask`` (on top of earlier pruning, if any).

        Args:
            module (nn.Module): module containing the tensor to prune
            name (str): parameter name within ``module`` on which pruning will act.
            mask (Tensor): binary mask to be applied to the parameter.
        """
        return super().apply(module, name, mask=mask)


def identity(module, name):
    r"""Apply the pruning reparameterization to ``module.<name>`` without pruning any units.

    Modifies ``module`` in place (and also returns it) by:

    1) adding a named buffer called ``name+'_mask'`` (here a tensor of ones) holding the binary mask applied
       to the parameter ``name`` by the pruning method;
    2) replacing the parameter ``name`` by its pruned version, while the original (unpruned) parameter is
       stored in a new parameter named ``name+'_orig'``.

    Args:
        module (nn.Module): module containing the tensor to prune.
        name (str): parameter name within ``module`` on which pruning will act.

    Returns:
        module (nn.Module): modified (i.e. pruned) version of the input module

    Examples:
        >>> m = prune.identity(nn.Linear(2, 3), "bias")
        >>> print(m.bias_mask)
        tensor([1., 1., 1.])
    """
    Identity.apply(module, name)
    return module


def random_unstructured(module, name, amount):
    r"""Prune ``module.<name>`` by removing the specified ``amount`` of (currently unpruned) units at random.

    Modifies ``module`` in place (and also returns it) by adding the buffer ``name+'_mask'`` and replacing the
    parameter ``name`` by its pruned version, the original being stored as the parameter ``name+'_orig'``.

    Args:
        module (nn.Module): module containing the tensor to prune
        name (str): parameter name within ``module`` on which pruning will act.
        amount (int or float): quantity of parameters to prune. If ``float``, should be between 0.0 and 1.0 and
            represent the fraction of parameters to prune. If ``int``, it represents the absolute number of
            parameters to prune.

    Returns:
        module (nn.Module): modified (i.e. pruned) version of the input module

    Examples:
        >>> m = prune.random_unstructured(nn.Linear(2, 3), "weight", amount=1)
        >>> torch.sum(m.weight_mask == 0)
        tensor(1)
    """
    RandomUnstructured.apply(module, name, amount)
    return module


def l1_unstructured(module, name, amount, importance_scores=None):
    r"""Prune ``module.<name>`` by removing the ``amount`` of (currently unpruned) units with the lowest L1-norm.

    Modifies ``module`` in place (and also returns it) by adding the buffer ``name+'_mask'`` and replacing the
    parameter ``name`` by its pruned version, the original being stored as the parameter ``name+'_orig'``.

    Args:
        module (nn.Module): module containing the tensor to prune
        name (str): parameter name within ``module`` on which pruning will act.
        amount (int or float): quantity of parameters to prune. If ``float``, should be between 0.0 and 1.0 and
            represent the fraction of parameters to prune. If ``int``, it represents the absolute number of
            parameters to prune.
        importance_scores (torch.Tensor): tensor of importance scores (of same shape as the module parameter)
            used to compute the mask. If unspecified or None, the module parameter is used in its place.

    Returns:
        module (nn.Module): modified (i.e. pruned) version of the input module

    Examples:
        >>> m = prune.l1_unstructured(nn.Linear(2, 3), "weight", amount=0.2)
        >>> m.state_dict().keys()
        odict_keys(['bias', 'weight_orig', 'weight_mask'])
    """
    L1Unstructured.apply(module, name, amount=amount, importance_scores=importance_scores)
    return module


def random_structured(module, name, amount, dim):
    r"""Prune ``module.<name>`` by removing ``amount`` random (currently unpruned) channels along ``dim``.

    Modifies ``module`` in place (and also returns it) by adding the buffer ``name+'_mask'`` and replacing the
    parameter ``name`` by its pruned version, the original being stored as the parameter ``name+'_orig'``.

    Args:
        module (nn.Module): module containing the tensor to prune
        name (str): parameter name within ``module`` on which pruning will act.
        amount (int or float): quantity of channels to prune. If ``float``, should be between 0.0 and 1.0 and
            represent the fraction of channels to prune. If ``int``, it represents the absolute number of
            channels to prune.
        dim (int): index of the dim along which we define channels to prune.

    Returns:
        module (nn.Module): modified (i.e. pruned) version of the input module

    Examples:
        >>> m = prune.random_structured(nn.Linear(5, 3), "weight", amount=3, dim=1)
        >>> columns_pruned = int(sum(torch.sum(m.weight, dim=0) == 0))
        >>> print(columns_pruned)
        3
    """
    RandomStructured.apply(module, name, amount, dim)
    return module


def ln_structured(module, name, amount, n, dim, importance_scores=None):
    r"""Prune ``module.<name>`` by removing the ``amount`` (currently unpruned) channels of lowest L\ ``n``-norm.

    The channels are taken along ``dim``. Modifies ``module`` in place (and also returns it) by adding the
    buffer ``name+'_mask'`` and replacing the parameter ``name`` by its pruned version, the original being
    stored as the parameter ``name+'_orig'``.

    Args:
        module (nn.Module): module containing the tensor to prune
        name (str): parameter name within ``module`` on which pruning will act.
        amount (int or float): quantity of channels to prune. If ``float``, should be between 0.0 and 1.0 and
            represent the fraction of channels to prune. If ``int``, it represents the absolute number of
            channels to prune.
        n (int, float, inf, -inf, 'fro', 'nuc'): See documentation of valid entries for argument ``p`` in
            :func:`torch.norm`.
        dim (int): index of the dim along which we define channels to prune.
        importance_scores (torch.Tensor): tensor of importance scores (of same shape as the module parameter)
            used to compute the mask. If unspecified or None, the module parameter is used in its place.

    Returns:
        module (nn.Module): modified (i.e. pruned) version of the input module

    Examples:
        >>> m = prune.ln_structured(nn.Conv2d(5, 3, 2), "weight", amount=0.3, dim=1, n=float("-inf"))
    """
    LnStructured.apply(module, name, amount, n, dim, importance_scores=importance_scores)
    return module


def global_unstructured(parameters, pruning_method, importance_scores=None, **kwargs) -> None:
    r"""Globally prune the tensors of all ``parameters`` by applying the specified ``pruning_method``.

    The decision is taken on all the tensors' entries together (flattened and concatenated); each
    ``(module, name)`` then gets a :class:`CustomFromMask` pruning with its slice of the combined mask, i.e. the
    buffer ``name+'_mask'`` and the parameter ``name+'_orig'`` as with the other pruning functions.

    Args:
        parameters (Iterable of (module, name) tuples): parameters of the model to prune in a global fashion.
            module must be of type :class:`nn.Module`, and name must be a string.
        pruning_method (function): a valid pruning method from this module, or a custom one satisfying the
            implementation guidelines and having ``PRUNING_TYPE='unstructured'``.
        importance_scores (dict): a dictionary mapping (module, name) tuples to the corresponding parameter's
            importance scores tensor (of the parameter's shape). If unspecified or None, the parameters are used
            in place of their importance scores.
        kwargs: other keyword arguments such as ``amount`` (int or float): quantity of parameters to prune
            across the specified parameters (fraction if ``float``, count if ``int``).

    Raises:
        TypeError: if ``PRUNING_TYPE != 'unstructured'``

    Examples:
        >>> parameters_to_prune = ((net.first, "weight"), (net.second, "weight"))
        >>> prune.global_unstructured(parameters_to_prune, pruning_method=prune.L1Unstructured, amount=10)
        >>> print(sum(torch.nn.utils.parameters_to_vector(net.buffers()) == 0))
        tensor(10)
    """
    if not isinstance(parameters, Iterable):
        raise TypeError("global_unstructured(): parameters is not an Iterable")

    importance_scores = importance_scores if importance_scores is not None else {}
    if not isinstance(importance_scores, dict):
        raise TypeError("global_unstructured(): importance_scores must be of type dict")

    # flatten importance scores to consider them all at once in global pruning
    relevant_importance_scores = parameters_to_vector(
        [importance_scores.get((module, name), getattr(module, name)) for (module, name) in parameters]
    )
    # similarly, flatten the masks (if they exist), or use a flattened vector of 1s
    default_mask = parameters_to_vector(
        [getattr(module, name + "_mask", torch.ones_like(getattr(module, name))) for (module, name) in parameters]
    )

    # the canonical pruning methods compute the new mask, on the flattened tensor
    container = PruningContainer()
    container._tensor_name = "temp"  # to make it match that of `method`
    method = pruning_method(**kwargs)
    method._tensor_name = "temp"  # to make it match that of `container`
    if method.PRUNING_TYPE != "unstructured":
        raise TypeError(
            'Only "unstructured" PRUNING_TYPE supported for '
            f"the `pruning_method`. Found method {pruning_method} of type {method.PRUNING_TYPE}"
        )

    container.add_pruning_method(method)

    # PruningContainer.compute_mask combines the new method's mask with the pre-existing one
    final_mask = container.compute_mask(relevant_importance_scores, default_mask)

    # slice the mask for each parameter and apply it like any other pruning method
    pointer = 0
    for module, name in parameters:
        param = getattr(module, name)
        num_param = param.numel()
        param_mask = final_mask[pointer : pointer + num_param].view_as(param)
        custom_from_mask(module, name, mask=param_mask)
        pointer += num_param


def custom_from_mask(module, name, mask):
    r"""Prune ``module.<name>`` by applying the pre-computed ``mask``.

    Modifies ``module`` in place (and also returns it) by adding the buffer ``name+'_mask'`` and replacing the
    parameter ``name`` by its pruned version, the original being stored as the parameter ``name+'_orig'``.

    Args:
        module (nn.Module): module containing the tensor to prune
        name (str): parameter name within ``module`` on which pruning will act.
        mask (Tensor): binary mask to be applied to the parameter.

    Returns:
        module (nn.Module): modified (i.e. pruned) version of the input module

    Examples:
        >>> m = prune.custom_from_mask(nn.Linear(5, 3), name="bias", mask=torch.tensor([0, 1, 0]))
        >>> print(m.bias_mask)
        tensor([0., 1., 0.])
    """
    CustomFromMask.apply(module, name, mask)
    return module


def remove(module, name):
    r"""Remove the pruning reparameterization of ``module.<name>`` and its pruning method from the forward hooks.

    The pruned parameter named ``name`` remains permanently pruned, and the parameter named ``name+'_orig'`` is
    removed from the parameter list. Similarly, the buffer named ``name+'_mask'`` is removed from the buffers.

    Note:
        Pruning itself is NOT undone or reversed!

    Args:
        module (nn.Module): module containing the tensor to prune
        name (str): parameter name within ``module`` on which pruning will act.

    Returns:
        module (nn.Module): the input module.

    Raises:
        ValueError: if ``module.<name>`` is not pruned.

    Examples:
        >>> m = random_unstructured(nn.Linear(5, 7), name="weight", amount=0.2)
        >>> m = remove(m, name="weight")
    """
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            return module

    raise ValueError(f"Parameter '{name}' of module {module} has to be pruned before pruning can be removed")


def is_pruned(module) -> bool:
    r"""Whether ``module`` or any of its submodules has a pruning method (a :class:`BasePruningMethod`) as a
    forward pre-hook.

    Args:
        module (nn.Module): object that is either pruned or unpruned

    Returns:
        binary answer to whether ``module`` is pruned.

    Examples:
        >>> m = nn.Linear(5, 7)
        >>> print(prune.is_pruned(m))
        False
        >>> prune.random_unstructured(m, name="weight", amount=0.2)
        >>> print(prune.is_pruned(m))
        True
    """
    for _, submodule in module.named_modules():
        for hook in submodule._forward_pre_hooks.values():
            if isinstance(hook, BasePruningMethod):
                return True
    return False


def _validate_pruning_amount_init(amount) -> None:
    r"""Check the range of ``amount`` at init (the tensor's size is known only at prune time).

    Raises:
        ValueError: if amount is a float not in [0, 1], or if it's a negative integer.
        TypeError: if amount is neither a float nor an integer.
    """
    if not isinstance(amount, numbers.Real):
        raise TypeError(f"Invalid type for amount: {amount}. Must be int or float.")

    if (isinstance(amount, numbers.Integral) and amount < 0) or (
        not isinstance(amount, numbers.Integral)  # so it's a float
        and (float(amount) > 1.0 or float(amount) < 0.0)
    ):
        raise ValueError(f"amount={amount} should either be a float in the range [0, 1] or a non-negative integer")


def _validate_pruning_amount(amount, tensor_size) -> None:
    r"""Check that an integer ``amount`` of units to prune does not exceed ``tensor_size`` (the units there)."""
    if isinstance(amount, numbers.Integral) and amount > tensor_size:
        raise ValueError(f"amount={amount} should be smaller than the number of parameters to prune={tensor_size}")


def _validate_structured_pruning(t) -> None:
    r"""Check that the tensor to prune is at least 2-D, so that "channels" are defined.

    Raises:
        ValueError: if the tensor `t` is not at least 2D.
    """
    shape = t.shape
    if len(shape) <= 1:
        raise ValueError(
            "Structured pruning can only be applied to "
            "multidimensional tensors. Found tensor of shape "
            f"{shape} with {len(shape)} dims"
        )


def _compute_nparams_toprune(amount, tensor_size):
    r"""The number of units to prune: ``amount`` if it is an int, else ``round(amount * tensor_size)``."""
    if isinstance(amount, numbers.Integral):
        return amount
    else:
        return round(amount * tensor_size)


def _validate_pruning_dim(t, dim) -> None:
    r"""Check that the pruning dimension is within the bounds of the tensor's dimensions."""
    if dim >= t.dim():
        raise IndexError(f"Invalid index {dim} for tensor of size {t.shape}")


def _compute_norm(t, n, dim):
    r"""The L_n-norm of ``t`` over all dimensions but ``dim`` (one value per channel along ``dim``).

    Args:
        t (torch.Tensor): tensor representing the parameter to prune
        n (int, float, inf, -inf, 'fro', 'nuc'): See documentation of valid entries for argument p in
            torch.norm
        dim (int): dim identifying the channels to prune

    Returns:
        norm (torch.Tensor): L_n norm computed across all dimensions except for `dim`, of shape
        ``[t.shape[dim]]``.
    """
    dims = list(range(t.dim()))
    if dim < 0:
        dim = dims[dim]
    dims.remove(dim)

    norm = torch.norm(t, p=n, dim=dims)
    return norm
