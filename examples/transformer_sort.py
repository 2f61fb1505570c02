"""Train a small transformer encoder to sort sequences of small integers.

Plain PyTorch code: it runs unchanged on this library and on upstream PyTorch.

    python examples/transformer_sort.py                  # ~100 % of test sequences sorted exactly
    python examples/transformer_sort.py --device cuda    # on a GPU
    python examples/transformer_sort.py --epochs 1 --limit 256   # a quick smoke run

Each example is a random sequence of `--length` integers in [0, `--vocab`); the target is the same
sequence sorted. The model reads the whole sequence at once (token embedding + sinusoidal positional
encoding + an nn.TransformerEncoder of pre-norm nn.TransformerEncoderLayer blocks) and predicts the
sorted value at every position with a per-position classifier, trained with cross-entropy.
"""

from __future__ import annotations

import argparse
import math
import time

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class PositionalEncoding(nn.Module):
    """Adds the fixed sinusoidal position signal of "Attention Is All You Need" to (N, L, d_model) inputs."""

    def __init__(self, d_model: int, max_len: int = 512) -> None:
        super().__init__()
        position = torch.arange(max_len, dtype=torch.float32).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float32) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, d_model)
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """x + the encoding of positions 0 .. L-1."""
        return x + self.pe[: x.shape[1]]


class SortTransformer(nn.Module):
    """Token embedding + positional encoding + a `num_layers`-deep encoder + a per-position classifier."""

    def __init__(
        self, vocab: int, d_model: int = 64, nhead: int = 4, num_layers: int = 2, dim_feedforward: int = 128,
        dropout: float = 0.0,
    ) -> None:  # fmt: skip
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.pos = PositionalEncoding(d_model)
        layer = nn.TransformerEncoderLayer(
            d_model, nhead, dim_feedforward, dropout, activation="gelu", batch_first=True, norm_first=True
        )
        # pre-norm layers end with a final LayerNorm; nested tensors only apply to post-norm layers
        self.encoder = nn.TransformerEncoder(layer, num_layers, norm=nn.LayerNorm(d_model), enable_nested_tensor=False)
        self.head = nn.Linear(d_model, vocab)
        self.scale = math.sqrt(d_model)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        """Logits (N, L, vocab) of the sorted sequence, from int64 tokens (N, L)."""
        x = self.pos(self.embed(tokens) * self.scale)
        return self.head(self.encoder(x))


def make_dataset(n: int, length: int, vocab: int, generator: torch.Generator) -> TensorDataset:
    """`n` random sequences (N, length) of integers in [0, vocab) and their sorted versions."""
    x = torch.randint(0, vocab, (n, length), generator=generator)
    y, _ = torch.sort(x, dim=1)
    return TensorDataset(x, y)


@torch.no_grad()
def evaluate(model, loader, loss_fn, device, vocab: int) -> tuple[float, float, float]:
    """(mean loss, token accuracy, sequence accuracy) of `model` over `loader`."""
    model.eval()
    total_loss, tokens_ok, seqs_ok, n_tokens, n_seqs = 0.0, 0, 0, 0, 0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        logits = model(x)
        total_loss += loss_fn(logits.reshape(-1, vocab), y.reshape(-1)).item() * y.numel()
        ok = logits.argmax(dim=-1) == y
        tokens_ok += ok.sum().item()
        seqs_ok += ok.all(dim=1).sum().item()
        n_tokens += y.numel()
        n_seqs += y.shape[0]
    return total_loss / n_tokens, tokens_ok / n_tokens, seqs_ok / n_seqs


def parse_args(argv=None) -> argparse.Namespace:
    """Command-line options."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--epochs", type=int, default=20)
    p.add_argument("--train-size", type=int, default=10000, help="number of training sequences")
    p.add_argument("--test-size", type=int, default=2000, help="number of held-out test sequences")
    p.add_argument("--limit", type=int, default=None, help="use only the first N training sequences")
    p.add_argument("--length", type=int, default=10, help="sequence length")
    p.add_argument("--vocab", type=int, default=10, help="integers are drawn from [0, vocab)")
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--device", default="cpu", help="cpu or cuda")
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args(argv)


def main(argv=None) -> float:
    """Train, print per-epoch metrics; returns the final test sequence accuracy."""
    args = parse_args(argv)
    device = torch.device(args.device)
    if device.type == "cuda" and not torch.cuda.is_available():
        raise SystemExit("--device cuda was given but torch.cuda.is_available() is False")
    torch.manual_seed(args.seed)

    data_gen = torch.Generator().manual_seed(args.seed)
    train_set = make_dataset(args.train_size, args.length, args.vocab, data_gen)
    test_set = make_dataset(args.test_size, args.length, args.vocab, data_gen)
    if args.limit is not None:
        train_set = TensorDataset(*(t[: args.limit] for t in train_set.tensors))
    loader_gen = torch.Generator().manual_seed(args.seed)
    train_loader = DataLoader(train_set, batch_size=args.batch_size, shuffle=True, generator=loader_gen)
    test_loader = DataLoader(test_set, batch_size=500)
    print(
        f"torch {torch.__version__} on {device}: sort {args.length} integers in [0, {args.vocab}); "
        f"{len(train_set)} train / {len(test_set)} test sequences"
    )

    model = SortTransformer(args.vocab).to(device)
    print(f"model: {sum(p.numel() for p in model.parameters())} parameters")
    loss_fn = nn.CrossEntropyLoss()
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    total_steps = args.epochs * len(train_loader)
    warmup = max(1, min(100, total_steps // 10))
    scheduler = torch.optim.lr_scheduler.SequentialLR(
        optimizer,
        [
            torch.optim.lr_scheduler.LinearLR(optimizer, start_factor=0.01, total_iters=warmup),
            torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=max(1, total_steps - warmup)),
        ],
        milestones=[warmup],
    )

    start = time.perf_counter()
    seq_acc = 0.0
    for epoch in range(1, args.epochs + 1):
        model.train()
        epoch_start, total, batches = time.perf_counter(), 0.0, 0
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad()
            loss = loss_fn(model(x).reshape(-1, args.vocab), y.reshape(-1))
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            scheduler.step()
            total += loss.item()
            batches += 1
        test_loss, tok_acc, seq_acc = evaluate(model, test_loader, loss_fn, device, args.vocab)
        print(
            f"epoch {epoch:2d}  train loss {total / batches:.4f}  test loss {test_loss:.4f}  "
            f"token accuracy {100 * tok_acc:6.2f} %  sequence accuracy {100 * seq_acc:6.2f} %  "
            f"({time.perf_counter() - epoch_start:.1f} s)",
            flush=True,
        )
    elapsed = time.perf_counter() - start
    model.eval()
    with torch.no_grad():
        x = test_set.tensors[0][:1].to(device)
        pred = model(x).argmax(dim=-1)
    print(f"example: {x[0].tolist()} -> {pred[0].tolist()}")
    print(f"final test sequence accuracy {100 * seq_acc:.2f} % in {elapsed:.1f} s")
    return seq_acc


if __name__ == "__main__":
    main()
