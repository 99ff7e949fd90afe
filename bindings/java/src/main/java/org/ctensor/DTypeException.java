// DTypeException.java - thrown for CT_ERR_DTYPE: a dtype the op does not accept.
package org.ctensor;

/** Thrown for CT_ERR_DTYPE: a dtype the op does not accept. */
public class DTypeException extends CTensorException {
    private static final long serialVersionUID = 1L;

    public DTypeException(int status, String message, Throwable cause) {
        super(status, message, cause);
    }
}
