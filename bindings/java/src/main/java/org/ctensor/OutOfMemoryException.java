// OutOfMemoryException.java - thrown for CT_ERR_OUT_OF_MEMORY: a native allocation that could not be satisfied.
package org.ctensor;

/** Thrown for CT_ERR_OUT_OF_MEMORY: a native allocation that could not be satisfied. */
public class OutOfMemoryException extends CTensorException {
    private static final long serialVersionUID = 1L;

    public OutOfMemoryException(int status, String message, Throwable cause) {
        super(status, message, cause);
    }
}
