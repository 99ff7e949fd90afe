// InternalException.java - thrown for CT_ERR_INTERNAL: a bug in ctensor (the message says where).
package org.ctensor;

/** Thrown for CT_ERR_INTERNAL: a bug in ctensor (the message says where). */
public class InternalException extends CTensorException {
    private static final long serialVersionUID = 1L;

    public InternalException(int status, String message, Throwable cause) {
        super(status, message, cause);
    }
}
