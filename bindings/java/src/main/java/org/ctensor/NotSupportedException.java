// NotSupportedException.java - thrown for CT_ERR_NOT_SUPPORTED: a valid request this version does not implement.
package org.ctensor;

/** Thrown for CT_ERR_NOT_SUPPORTED: a valid request this version does not implement. */
public class NotSupportedException extends CTensorException {
    private static final long serialVersionUID = 1L;

    public NotSupportedException(int status, String message, Throwable cause) {
        super(status, message, cause);
    }
}
