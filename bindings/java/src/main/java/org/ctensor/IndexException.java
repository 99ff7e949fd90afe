// IndexException.java - thrown for CT_ERR_INDEX: a dim or index out of range.
package org.ctensor;

/** Thrown for CT_ERR_INDEX: a dim or index out of range. */
public class IndexException extends CTensorException {
    private static final long serialVersionUID = 1L;

    public IndexException(int status, String message, Throwable cause) {
        super(status, message, cause);
    }
}
