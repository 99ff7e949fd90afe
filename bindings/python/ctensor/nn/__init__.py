"""ctensor.nn: Modules, Parameters, layers, losses, functional, init and utils (PyTorch names)."""
from . import functional, init, parallel, utils  # noqa: F401
from .activation import (CELU, ELU, GLU, Hardshrink, Hardsigmoid, Hardswish, Hardtanh,  # noqa: F401
                         LogSigmoid, Mish, PReLU, RReLU, SELU, Softmin, Softshrink, Softsign, Tanhshrink,
                         Threshold)
from .layers import (AdaptiveAvgPool2d, AdaptiveMaxPool2d, AvgPool2d, Dropout, Dropout1d,  # noqa: F401
                     Dropout2d, Dropout3d, Embedding, Flatten, GELU, Identity, LayerNorm, LeakyReLU, Linear,
                     LogSoftmax, MaxPool2d, ReLU, ReLU6, Sigmoid, SiLU, Softmax, Softplus, Tanh, Unflatten)
from .conv import (Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d,  # noqa: F401
                   ConvTranspose3d)
from .fold import Fold, PixelShuffle, PixelUnshuffle, Unfold  # noqa: F401
from .loss import (BCELoss, BCEWithLogitsLoss, CosineEmbeddingLoss, CosineSimilarity,  # noqa: F401
                   CrossEntropyLoss, CTCLoss, GaussianNLLLoss, HingeEmbeddingLoss, HuberLoss, KLDivLoss, L1Loss,
                   MarginRankingLoss, MSELoss, MultiLabelSoftMarginLoss, MultiMarginLoss, NLLLoss, PairwiseDistance,
                   PoissonNLLLoss, SmoothL1Loss, SoftMarginLoss, TripletMarginLoss)
from ._embedding import EmbeddingBag  # noqa: F401
from ._upsample import Upsample, UpsamplingBilinear2d, UpsamplingNearest2d  # noqa: F401
from .module import Module, ModuleDict, ModuleList, Sequential  # noqa: F401
from .normalization import (BatchNorm1d, BatchNorm2d, BatchNorm3d, GroupNorm, InstanceNorm1d,  # noqa: F401
                            InstanceNorm2d, InstanceNorm3d, LocalResponseNorm)
from .padding import (CircularPad1d, CircularPad2d, CircularPad3d, ConstantPad1d, ConstantPad2d,  # noqa: F401
                      ConstantPad3d, ReflectionPad1d, ReflectionPad2d, ReflectionPad3d, ReplicationPad1d,
                      ReplicationPad2d, ReplicationPad3d, ZeroPad1d, ZeroPad2d, ZeroPad3d)
from .parameter import Parameter  # noqa: F401
from .transformer import (MultiheadAttention, Transformer, TransformerDecoder,  # noqa: F401
                          TransformerDecoderLayer, TransformerEncoder, TransformerEncoderLayer)
from .pooling import (AdaptiveAvgPool1d, AdaptiveAvgPool3d, AdaptiveMaxPool1d, AdaptiveMaxPool3d,  # noqa: F401
                      AvgPool1d, AvgPool3d, MaxPool1d, MaxPool3d)
from .parameter_containers import ParameterDict, ParameterList  # noqa: F401
from .rnn import GRU, GRUCell, LSTM, LSTMCell, RNN, RNNBase, RNNCell, RNNCellBase  # noqa: F401
