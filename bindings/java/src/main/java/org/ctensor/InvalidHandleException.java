// InvalidHandleException.java - thrown for CT_ERR_INVALID_HANDLE: a NULL, unknown or already released native handle.
package org.ctensor;

/** Thrown for CT_ERR_INVALID_HANDLE: a NULL, unknown or already released native handle. */
public class InvalidHandleException extends CTensorException {
    private static final long serialVersionUID = 1L;

    public InvalidHandleException(int status, String message, Throwable cause) {
        super(status, message, cause);
    }
}
