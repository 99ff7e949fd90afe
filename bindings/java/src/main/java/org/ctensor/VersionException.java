// VersionException.java - thrown for CT_ERR_VERSION: a native library older than, or incompatible with, this binding.
package org.ctensor;

/** Thrown for CT_ERR_VERSION: a native library older than, or incompatible with, this binding. */
public class VersionException extends CTensorException {
    private static final long serialVersionUID = 1L;

    public VersionException(int status, String message, Throwable cause) {
        super(status, message, cause);
    }
}
