// CTensorException.java - the unchecked base of every ctensor error, and the one helper (of) that maps a
// non-OK ct_status to its subclass, carrying the status and ct_last_error()'s message.
package org.ctensor;

import org.ctensor.internal.CT;

public class CTensorException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;

    public CTensorException(int status, String message, Throwable cause) {
        super(message, cause);
        this.status = status;
    }

    /** The ct_status code (CT_ERR_*). */
    public int status() {
        return status;
    }

    /** The status name, e.g. "CT_ERR_SHAPE". */
    public String statusName() {
        return CT.status_name(status);
    }

    /** Maps a non-OK status to its exception class (a status this binding does not know gives the base class). */
    public static CTensorException of(int status, String message, Throwable cause) {
        switch (status) {
            case CT.CT_ERR_INVALID_ARGUMENT: return new InvalidArgumentException(status, message, cause);
            case CT.CT_ERR_INVALID_HANDLE: return new InvalidHandleException(status, message, cause);
            case CT.CT_ERR_SHAPE: return new ShapeException(status, message, cause);
            case CT.CT_ERR_DTYPE: return new DTypeException(status, message, cause);
            case CT.CT_ERR_DEVICE: return new DeviceException(status, message, cause);
            case CT.CT_ERR_INDEX: return new IndexException(status, message, cause);
            case CT.CT_ERR_OUT_OF_MEMORY: return new OutOfMemoryException(status, message, cause);
            case CT.CT_ERR_NOT_COMPILED: return new NotCompiledException(status, message, cause);
            case CT.CT_ERR_NOT_SUPPORTED: return new NotSupportedException(status, message, cause);
            case CT.CT_ERR_AUTOGRAD: return new AutogradException(status, message, cause);
            case CT.CT_ERR_INTERNAL: return new InternalException(status, message, cause);
            case CT.CT_ERR_CALLBACK: return new CallbackException(status, message, cause);
            case CT.CT_ERR_VERSION: return new VersionException(status, message, cause);
            case CT.CT_ERR_IO: return new FileException(status, message, cause);
            case CT.CT_ERR_DISTRIBUTED: return new DistributedException(status, message, cause);
            default: return new CTensorException(status, "status " + status + ": " + message, cause);
        }
    }
}
