"""torch's type promotion queries with torch's signatures: promote_types, can_cast, result_type. The rules live
in the core (ct_promote_types, ct_can_cast, ct_result_type); nothing here keeps a copy of them."""
from . import _C
from ._types import BY_CODE, to_dtype

__all__ = ["promote_types", "can_cast", "result_type"]


def promote_types(type1, type2):
    """The dtype two tensors of dtypes type1 and type2 promote to (float16 + bfloat16 -> float32, ...)."""
    return BY_CODE[_C.promote_types(to_dtype(type1).code, to_dtype(type2).code)]


def can_cast(from_, to):
    """Whether an op's result of dtype from_ may be stored in dtype to (no cast to a lower category:
    bool < integer < floating < complex)."""
    return _C.can_cast(to_dtype(from_).code, to_dtype(to).code)


def result_type(tensor1, tensor2):
    """The dtype of an elementwise op of tensor1 and tensor2, each a Tensor or a Python number."""
    return BY_CODE[_C.result_type(tensor1, tensor2)]
