// ReduceOp.java - the reductions of ProcessGroup.allReduce and reduceScatter (the C ABI's ct_reduce_op values).
package org.ctensor.distributed;

import org.ctensor.internal.CT;

/** How allReduce and reduceScatter combine the ranks' tensors. */
public enum ReduceOp {
    /** Sum (bool: or). */
    SUM(CT.CT_REDUCE_SUM),
    /** Sum divided by the group size (floating dtypes only, else a DTypeException). */
    MEAN(CT.CT_REDUCE_MEAN),
    /** Maximum (bool: or). */
    MAX(CT.CT_REDUCE_MAX),
    /** Minimum (bool: and). */
    MIN(CT.CT_REDUCE_MIN),
    /** Product (bool: and). */
    PRODUCT(CT.CT_REDUCE_PRODUCT);

    private final int value;

    ReduceOp(int value) {
        this.value = value;
    }

    /** The C ABI value. */
    public int value() {
        return value;
    }
}
