// ShapeException.java - thrown for CT_ERR_SHAPE: shapes that do not fit the op.
package org.ctensor;

/** Thrown for CT_ERR_SHAPE: shapes that do not fit the op. */
public class ShapeException extends CTensorException {
    private static final long serialVersionUID = 1L;

    public ShapeException(int status, String message, Throwable cause) {
        super(status, message, cause);
    }
}
