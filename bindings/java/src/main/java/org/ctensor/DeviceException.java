// DeviceException.java - thrown for CT_ERR_DEVICE: tensors on different devices, or an unusable device.
package org.ctensor;

/** Thrown for CT_ERR_DEVICE: tensors on different devices, or an unusable device. */
public class DeviceException extends CTensorException {
    private static final long serialVersionUID = 1L;

    public DeviceException(int status, String message, Throwable cause) {
        super(status, message, cause);
    }
}
