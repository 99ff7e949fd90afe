// NotCompiledException.java - thrown for CT_ERR_NOT_COMPILED: a feature (e.g. the CUDA backend) not built or not loadable.
package org.ctensor;

/** Thrown for CT_ERR_NOT_COMPILED: a feature (e.g. the CUDA backend) not built or not loadable. */
public class NotCompiledException extends CTensorException {
    private static final long serialVersionUID = 1L;

    public NotCompiledException(int status, String message, Throwable cause) {
        super(status, message, cause);
    }
}
