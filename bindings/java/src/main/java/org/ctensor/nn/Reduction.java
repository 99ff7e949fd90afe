// Reduction.java - how a loss reduces its per-element values (fixed CT_REDUCTION_* values).
package org.ctensor.nn;

public enum Reduction {
    NONE(0), MEAN(1), SUM(2),
    /** The sum divided by the input's dim 0 (klDiv only). */
    BATCHMEAN(3);

    public final int code;

    Reduction(int code) {
        this.code = code;
    }
}
