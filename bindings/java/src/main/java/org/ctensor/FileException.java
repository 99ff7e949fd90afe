// FileException.java - thrown for CT_ERR_IO: a file that cannot be read or written, or is not a valid file of its format.
package org.ctensor;

/** Thrown for CT_ERR_IO: a file that cannot be read or written, or is not a valid file of its format. */
public class FileException extends CTensorException {
    private static final long serialVersionUID = 1L;

    public FileException(int status, String message, Throwable cause) {
        super(status, message, cause);
    }
}
