"""Distribution: the base of torch.distributions' families (batch and event shapes, sampling, argument and
sample validation with PyTorch's messages)."""

from __future__ import annotations

import torch
from torch.distributions import constraints

_validate_default = True


class Distribution:
    """A batch of probability distributions: batch_shape independent ones, each over events of event_shape."""

    has_rsample = False
    has_enumerate_support = False
    arg_constraints: dict = {}
    support = None

    @staticmethod
    def set_default_validate_args(value: bool) -> None:
        """Whether new distributions check their arguments (and log_prob its values) by default."""
        global _validate_default
        _validate_default = bool(value)

    def __init__(self, batch_shape=(), event_shape=(), validate_args=None):
        self._batch_shape, self._event_shape = torch.Size(batch_shape), torch.Size(event_shape)
        self._validate_args = _validate_default if validate_args is None else validate_args
        if self._validate_args:
            for param, constraint in self.arg_constraints.items():
                if constraints.is_dependent(constraint):  # no check of its own (upstream skips these too)
                    continue
                if param not in self.__dict__ and _lazy(type(self), param):
                    continue  # given another way (probs for logits) and not computed yet: not checked twice
                # a parameter kept under another name (Chi2's df is its concentration) is checked too
                value = getattr(self, param)
                if not bool(constraint.check(value).all()):
                    raise ValueError(
                        f"Expected parameter {param} (Tensor of shape {tuple(value.shape)}) of distribution {self!r} "
                        f"to satisfy the constraint {constraint!r}, but found invalid values:\n{value}"
                    )

    @property
    def batch_shape(self) -> torch.Size:
        """The shape over which parameters are batched."""
        return self._batch_shape

    @property
    def event_shape(self) -> torch.Size:
        """The shape of one sample of one distribution."""
        return self._event_shape

    def expand(self, batch_shape, _instance=None):
        """A new distribution with its parameters expanded to batch_shape (no copies); families that do not
        support it raise NotImplementedError."""
        raise NotImplementedError(f"{type(self).__name__} does not implement expand")

    def _get_checked_instance(self, cls, _instance=None):
        """A blank instance of type(self) for expand() to fill (PyTorch's check: a subclass with its own
        __init__ must define its own expand)."""
        if _instance is None and type(self).__init__ != cls.__init__:
            raise NotImplementedError(
                f"Subclass {self.__class__.__name__} of {cls.__name__} that defines a custom __init__ method "
                "must also define a custom .expand() method."
            )
        return self.__new__(type(self)) if _instance is None else _instance

    def _expand_parameters(self, cls, names, batch_shape, _instance=None):
        """expand() of a family whose parameters are the attributes `names` (tensors, or the distributions it is
        built on): a cls with each expanded to batch_shape (their dims past the batch kept), validating (later
        samples) as this one does."""
        new = self._get_checked_instance(cls, _instance)
        batch_shape = torch.Size(batch_shape)
        keep = len(self._batch_shape)
        for name in names:
            value = getattr(self, name)
            if isinstance(value, Distribution):
                value = value.expand(batch_shape + value.batch_shape[keep:])
            else:
                value = value.expand(batch_shape + value.shape[keep:])
            setattr(new, name, value)
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def _extended_shape(self, sample_shape=()) -> torch.Size:
        return torch.Size(tuple(sample_shape) + tuple(self._batch_shape) + tuple(self._event_shape))

    def rsample(self, sample_shape=()):
        """A reparameterized sample (gradients flow to the parameters)."""
        raise NotImplementedError(f"{type(self).__name__} has no rsample")

    def sample(self, sample_shape=()):
        """A sample of shape sample_shape + batch_shape + event_shape, without gradients."""
        with torch.no_grad():
            return self.rsample(sample_shape)

    def sample_n(self, n: int):
        """n samples (sample((n,)))."""
        return self.sample(torch.Size((n,)))

    def _validate_sample(self, value) -> None:
        if not isinstance(value, torch.Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        support = self.support
        if support is not None and not bool(support.check(value).all()):
            raise ValueError(
                f"Expected value argument ({type(value).__name__} of shape {tuple(value.shape)}) to be within the "
                f"support ({support!r}) of the distribution {self!r}, but found invalid values:\n{value}"
            )

    @property
    def mean(self):
        """The mean."""
        raise NotImplementedError

    @property
    def mode(self):
        """The mode (a most likely value)."""
        raise NotImplementedError(f"{self.__class__} does not implement mode")

    @property
    def variance(self):
        """The variance."""
        raise NotImplementedError

    def enumerate_support(self, expand=True):
        """Every value of a discrete support, along a new first dim (expanded over the batch unless
        expand=False)."""
        raise NotImplementedError

    def perplexity(self):
        """exp(entropy)."""
        return torch.exp(self.entropy())

    @property
    def stddev(self):
        """The standard deviation."""
        return self.variance.sqrt()

    def log_prob(self, value):
        """The log density (or mass) at value."""
        raise NotImplementedError

    def cdf(self, value):
        """P(X <= value)."""
        raise NotImplementedError

    def icdf(self, value):
        """The value below which the probability is `value`."""
        raise NotImplementedError

    def entropy(self):
        """The entropy, in nats."""
        raise NotImplementedError

    def __repr__(self) -> str:
        names = [k for k in self.arg_constraints if k in self.__dict__]
        args = ", ".join(
            f"{k}: {self.__dict__[k] if self.__dict__[k].numel() == 1 else self.__dict__[k].size()}" for k in names
        )
        return f"{type(self).__name__}({args})"


def _lazy(cls, name: str) -> bool:
    """Whether `name` is a lazy_property (utils.py; marked `_lazy`) of cls or a base, looked up without running
    it."""
    owner = next((c for c in cls.__mro__ if name in c.__dict__), None)
    return owner is not None and getattr(owner.__dict__[name], "_lazy", False) is True


def broadcast_all(*values):
    """The values (tensors or numbers, numbers as the default float dtype) broadcast together."""
    like = next((v for v in values if isinstance(v, torch.Tensor)), None)
    tensors = [
        v if isinstance(v, torch.Tensor) else torch.tensor(float(v), dtype=like.dtype if like is not None and
                                                           like.dtype.is_floating_point else None)
        for v in values
    ]  # fmt: skip
    return torch.broadcast_tensors(*tensors)


__all__ = ["Distribution", "broadcast_all", "constraints"]
