// CallbackException.java - thrown for CT_ERR_CALLBACK: a Java callback (custom backward, hook) that failed; the cause is its exception.
package org.ctensor;

/** Thrown for CT_ERR_CALLBACK: a Java callback (custom backward, hook) that failed; the cause is its exception. */
public class CallbackException extends CTensorException {
    private static final long serialVersionUID = 1L;

    public CallbackException(int status, String message, Throwable cause) {
        super(status, message, cause);
    }
}
