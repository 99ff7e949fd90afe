// AutogradException.java - thrown for CT_ERR_AUTOGRAD: an autograd misuse (second backward, modified saved tensor, ...).
package org.ctensor;

/** Thrown for CT_ERR_AUTOGRAD: an autograd misuse (second backward, modified saved tensor, ...). */
public class AutogradException extends CTensorException {
    private static final long serialVersionUID = 1L;

    public AutogradException(int status, String message, Throwable cause) {
        super(status, message, cause);
    }
}
