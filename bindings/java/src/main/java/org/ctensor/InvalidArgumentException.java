// InvalidArgumentException.java - thrown for CT_ERR_INVALID_ARGUMENT: a bad argument value (null, negative size, bad option).
package org.ctensor;

/** Thrown for CT_ERR_INVALID_ARGUMENT: a bad argument value (null, negative size, bad option). */
public class InvalidArgumentException extends CTensorException {
    private static final long serialVersionUID = 1L;

    public InvalidArgumentException(int status, String message, Throwable cause) {
        super(status, message, cause);
    }
}
