// DistributedException.java - thrown for CT_ERR_DISTRIBUTED: a collective failed (a peer died or disagreed on shape/dtype, or the timeout passed).
package org.ctensor;

/** Thrown for CT_ERR_DISTRIBUTED: a collective failed (a peer died or disagreed on shape/dtype, or the timeout passed). */
public class DistributedException extends CTensorException {
    private static final long serialVersionUID = 1L;

    public DistributedException(int status, String message, Throwable cause) {
        super(status, message, cause);
    }
}
