"""torch.optim: optimizers and learning-rate schedulers (PyTorch's API)."""

from torch.optim import lr_scheduler, swa_utils
from torch.optim._adafactor import Adafactor
from torch.optim._muon import Muon
from torch.optim.adadelta import Adadelta
from torch.optim.adagrad import Adagrad
from torch.optim.adam import Adam
from torch.optim.adamax import Adamax
from torch.optim.adamw import AdamW
from torch.optim.asgd import ASGD
from torch.optim.lbfgs import LBFGS
from torch.optim.nadam import NAdam
from torch.optim.optimizer import Optimizer
from torch.optim.radam import RAdam
from torch.optim.rmsprop import RMSprop
from torch.optim.rprop import Rprop
from torch.optim.sgd import SGD

__all__ = [
    "Adadelta",
    "Adafactor",
    "ASGD",
    "Rprop",
    "swa_utils",
    "Adagrad",
    "Adam",
    "Adamax",
    "AdamW",
    "LBFGS",
    "Muon",
    "NAdam",
    "Optimizer",
    "RAdam",
    "RMSprop",
    "SGD",
    "lr_scheduler",
]
