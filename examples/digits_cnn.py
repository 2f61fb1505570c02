"""Train a small CNN on the 8x8 handwritten digits bundled with scikit-learn.

Plain PyTorch code: it runs unchanged on this library and on upstream PyTorch.

    python examples/digits_cnn.py                      # ~98-99 % test accuracy, loss curve in digits_cnn_loss.png
    python examples/digits_cnn.py --device cuda        # on a GPU
    python examples/digits_cnn.py --epochs 1 --limit 256 --plot /tmp/loss.png   # a quick smoke run

The 1797 images (values 0..16) are split 80/20 into train and test sets (stratified, fixed seed),
scaled to [0, 1], and fed through two 3x3 convolutions, a 2x2 max pool and two linear layers.
Each epoch shows a progress bar (tqdm) and prints the train loss and the test loss and accuracy.
"""

from __future__ import annotations

import argparse
import time

from matplotlib.figure import Figure  # no pyplot: no GUI backend, works without a display
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from tqdm import tqdm

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class DigitsCNN(nn.Module):
    """Conv(1->32) -> ReLU -> Conv(32->64) -> ReLU -> MaxPool(2) -> Linear(1024->128) -> ReLU -> Linear(128->10)."""

    def __init__(self, dropout: float = 0.25) -> None:
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 32, kernel_size=3, padding=1),
            nn.ReLU(),
            nn.Conv2d(32, 64, kernel_size=3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),  # 8x8 -> 4x4
        )
        self.classifier = nn.Sequential(
            nn.Flatten(),
            nn.Dropout(dropout),
            nn.Linear(64 * 4 * 4, 128),
            nn.ReLU(),
            nn.Dropout(dropout),
            nn.Linear(128, 10),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Logits (N, 10) of a batch of images (N, 1, 8, 8)."""
        return self.classifier(self.features(x))


def load_data(limit: int | None, seed: int) -> tuple[TensorDataset, TensorDataset]:
    """The digits as (train, test) TensorDatasets of float32 images (N, 1, 8, 8) in [0, 1] and int64 labels.

    `limit` caps the number of training images (the test set stays whole)."""
    digits = load_digits()
    x_train, x_test, y_train, y_test = train_test_split(
        digits.images, digits.target, test_size=0.2, random_state=seed, stratify=digits.target
    )
    if limit is not None:
        x_train, y_train = x_train[:limit], y_train[:limit]

    def to_dataset(x, y) -> TensorDataset:
        images = torch.tensor(x, dtype=torch.float32).unsqueeze(1) / 16.0
        return TensorDataset(images, torch.tensor(y, dtype=torch.int64))

    return to_dataset(x_train, y_train), to_dataset(x_test, y_test)


def train_epoch(model, loader, loss_fn, optimizer, scheduler, device, desc: str) -> list[float]:
    """One pass over `loader` with a progress bar; returns the loss of every batch."""
    model.train()
    losses = []
    with tqdm(loader, desc=desc, unit="batch", leave=True) as bar:
        for images, labels in bar:
            images, labels = images.to(device), labels.to(device)
            optimizer.zero_grad()
            loss = loss_fn(model(images), labels)
            loss.backward()
            optimizer.step()
            scheduler.step()
            losses.append(loss.item())
            bar.set_postfix(loss=f"{losses[-1]:.4f}")
    return losses


@torch.no_grad()
def evaluate(model, loader, loss_fn, device) -> tuple[float, float]:
    """(mean loss, accuracy) of `model` over `loader`."""
    model.eval()
    total_loss, correct, count = 0.0, 0, 0
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        logits = model(images)
        total_loss += loss_fn(logits, labels).item() * labels.shape[0]
        correct += (logits.argmax(dim=1) == labels).sum().item()
        count += labels.shape[0]
    return total_loss / count, correct / count


def plot_losses(batch_losses: list[float], epoch_test_losses: list[float], steps_per_epoch: int, path: str) -> None:
    """Save the loss curve: train loss per batch and test loss at the end of each epoch."""
    fig = Figure(figsize=(7, 4))
    ax = fig.subplots()
    ax.plot(range(1, len(batch_losses) + 1), batch_losses, lw=0.8, alpha=0.7, label="train (per batch)")
    test_steps = [steps_per_epoch * (i + 1) for i in range(len(epoch_test_losses))]
    ax.plot(test_steps, epoch_test_losses, "o-", label="test (per epoch)")
    ax.set_xlabel("step")
    ax.set_ylabel("cross-entropy loss")
    ax.set_yscale("log")
    ax.set_title("Small CNN on sklearn's 8x8 digits")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def parse_args(argv=None) -> argparse.Namespace:
    """Command-line options."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--epochs", type=int, default=15)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=3e-3, help="peak learning rate of the one-cycle schedule")
    p.add_argument("--weight-decay", type=float, default=1e-4)
    p.add_argument("--limit", type=int, default=None, help="use only the first N training images")
    p.add_argument("--num-workers", type=int, default=0, help="DataLoader worker processes (0: load in-process)")
    p.add_argument("--device", default="cpu", help="cpu or cuda")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--plot", default="digits_cnn_loss.png", help="where to save the loss curve (PNG)")
    return p.parse_args(argv)


def main(argv=None) -> float:
    """Train, print per-epoch metrics, save the loss plot; returns the final test accuracy."""
    args = parse_args(argv)
    device = torch.device(args.device)
    if device.type == "cuda" and not torch.cuda.is_available():
        raise SystemExit("--device cuda was given but torch.cuda.is_available() is False")
    torch.manual_seed(args.seed)

    train_set, test_set = load_data(args.limit, args.seed)
    generator = torch.Generator().manual_seed(args.seed)
    train_loader = DataLoader(
        train_set, batch_size=args.batch_size, shuffle=True, generator=generator, num_workers=args.num_workers
    )
    test_loader = DataLoader(test_set, batch_size=256)
    print(f"torch {torch.__version__} on {device}: {len(train_set)} train / {len(test_set)} test images")

    model = DigitsCNN().to(device)
    loss_fn = nn.CrossEntropyLoss()
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(
        optimizer, max_lr=args.lr, epochs=args.epochs, steps_per_epoch=len(train_loader)
    )

    batch_losses, test_losses = [], []
    start = time.perf_counter()
    test_acc = 0.0
    for epoch in range(1, args.epochs + 1):
        losses = train_epoch(
            model, train_loader, loss_fn, optimizer, scheduler, device, desc=f"epoch {epoch}/{args.epochs}"
        )
        batch_losses += losses
        test_loss, test_acc = evaluate(model, test_loader, loss_fn, device)
        test_losses.append(test_loss)
        print(
            f"epoch {epoch:2d}  train loss {sum(losses) / len(losses):.4f}  "
            f"test loss {test_loss:.4f}  test accuracy {100 * test_acc:.2f} %",
            flush=True,
        )
    elapsed = time.perf_counter() - start
    plot_losses(batch_losses, test_losses, len(train_loader), args.plot)
    print(f"final test accuracy {100 * test_acc:.2f} % in {elapsed:.1f} s; loss curve saved to {args.plot}")
    return test_acc


if __name__ == "__main__":
    main()
