"""NumPy implementations of each optimizer's documented per-parameter update (PyTorch's docs), used by
the step-for-step tests. Each takes a parameter, its gradient, its state dict (mutated) and the
options; it returns the new parameter."""

from __future__ import annotations

import numpy as np


def sgd(p, g, s, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, maximize=False):
    """SGD with momentum, dampening, Nesterov and weight decay."""
    g = -g if maximize else g
    if weight_decay:
        g = g + weight_decay * p
    if momentum:
        s["b"] = g.copy() if "b" not in s else momentum * s["b"] + (1 - dampening) * g
        g = g + momentum * s["b"] if nesterov else s["b"]
    return p - lr * g


def adam(
    p, g, s, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, maximize=False, decoupled=False
):
    """Adam (decoupled=True: AdamW)."""
    b1, b2 = betas
    s["t"] = t = s.get("t", 0) + 1
    g = -g if maximize else g
    if weight_decay:
        if decoupled:
            p = p * (1 - lr * weight_decay)
        else:
            g = g + weight_decay * p
    s["m"] = b1 * s.get("m", 0) + (1 - b1) * g
    s["v"] = b2 * s.get("v", 0) + (1 - b2) * g * g
    v = s["v"]
    if amsgrad:
        s["vmax"] = v = np.maximum(s.get("vmax", 0), s["v"])
    m_hat = s["m"] / (1 - b1**t)
    return p - lr * m_hat / (np.sqrt(v) / np.sqrt(1 - b2**t) + eps)


def rmsprop(p, g, s, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False, maximize=False):
    """RMSprop, optionally centered and with momentum."""
    g = -g if maximize else g
    if weight_decay:
        g = g + weight_decay * p
    s["v"] = alpha * s.get("v", 0) + (1 - alpha) * g * g
    v = s["v"]
    if centered:
        s["ga"] = alpha * s.get("ga", 0) + (1 - alpha) * g
        v = v - s["ga"] ** 2
    denom = np.sqrt(v) + eps
    if momentum > 0:
        s["b"] = momentum * s.get("b", 0) + g / denom
        return p - lr * s["b"]
    return p - lr * g / denom


def adagrad(p, g, s, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10, maximize=False):
    """Adagrad with learning-rate decay."""
    s["t"] = t = s.get("t", 0) + 1
    g = -g if maximize else g
    if weight_decay:
        g = g + weight_decay * p
    clr = lr / (1 + (t - 1) * lr_decay)
    s["sum"] = s.get("sum", initial_accumulator_value) + g * g
    return p - clr * g / (np.sqrt(s["sum"]) + eps)


def adadelta(p, g, s, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, maximize=False):
    """Adadelta."""
    g = -g if maximize else g
    if weight_decay:
        g = g + weight_decay * p
    s["v"] = rho * s.get("v", 0) + (1 - rho) * g * g
    delta = np.sqrt(s.get("u", 0) + eps) / np.sqrt(s["v"] + eps) * g
    s["u"] = rho * s.get("u", 0) + (1 - rho) * delta * delta
    return p - lr * delta


def adamax(p, g, s, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, maximize=False):
    """Adamax (infinity norm)."""
    b1, b2 = betas
    s["t"] = t = s.get("t", 0) + 1
    g = -g if maximize else g
    if weight_decay:
        g = g + weight_decay * p
    s["m"] = b1 * s.get("m", 0) + (1 - b1) * g
    s["u"] = np.maximum(b2 * s.get("u", 0), np.abs(g) + eps)
    return p - lr / (1 - b1**t) * s["m"] / s["u"]


def nadam(
    p,
    g,
    s,
    lr=2e-3,
    betas=(0.9, 0.999),
    eps=1e-8,
    weight_decay=0,
    momentum_decay=4e-3,
    decoupled_weight_decay=False,
    maximize=False,
):
    """NAdam with PyTorch's momentum schedule mu_t = beta1 (1 - 0.5 * 0.96^(t psi))."""
    b1, b2 = betas
    s["t"] = t = s.get("t", 0) + 1
    g = -g if maximize else g
    if weight_decay:
        if decoupled_weight_decay:
            p = p * (1 - lr * weight_decay)
        else:
            g = g + weight_decay * p
    mu = b1 * (1 - 0.5 * 0.96 ** (t * momentum_decay))
    mu_next = b1 * (1 - 0.5 * 0.96 ** ((t + 1) * momentum_decay))
    # PyTorch keeps the running product in a float32 0-d tensor (the default dtype): emulate its rounding
    s["P"] = np.float32(s.get("P", np.float32(1.0)) * np.float32(mu))
    prod = float(s["P"])
    s["m"] = b1 * s.get("m", 0) + (1 - b1) * g
    s["v"] = b2 * s.get("v", 0) + (1 - b2) * g * g
    denom = np.sqrt(s["v"] / (1 - b2**t)) + eps
    return p - lr * (1 - mu) / (1 - prod) * g / denom - lr * mu_next / (1 - prod * mu_next) * s["m"] / denom


def radam(p, g, s, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, decoupled_weight_decay=False, maximize=False):
    """RAdam: the rectified step when rho_t > 5, else the un-adapted momentum step."""
    b1, b2 = betas
    s["t"] = t = s.get("t", 0) + 1
    g = -g if maximize else g
    if weight_decay:
        if decoupled_weight_decay:
            p = p * (1 - lr * weight_decay)
        else:
            g = g + weight_decay * p
    s["m"] = b1 * s.get("m", 0) + (1 - b1) * g
    s["v"] = b2 * s.get("v", 0) + (1 - b2) * g * g
    m_hat = s["m"] / (1 - b1**t)
    rho_inf = 2 / (1 - b2) - 1
    rho_t = rho_inf - 2 * t * b2**t / (1 - b2**t)
    if rho_t > 5:
        r = np.sqrt((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
        return p - lr * m_hat * r * np.sqrt(1 - b2**t) / (np.sqrt(s["v"]) + eps)
    return p - lr * m_hat
