/* ctj_support.h - hand-written JNI helpers behind the SWIG-generated layer: the status -> Java exception throw,
 * thread attach/detach for callbacks, and the wrappers whose C signatures take callbacks or caller-sized arrays. */
#ifndef CTJ_SUPPORT_H
#define CTJ_SUPPORT_H

#include <jni.h>
#include <ctensor.h>

/* Throws the Java exception of status (org.ctensor.CTensorException.fromNative) with ct_last_error(). */
void ctj_throw_status(JNIEnv* env, ct_status status);
/* Sets this thread's ctensor error to CT_ERR_INVALID_ARGUMENT with message, then throws it. */
void ctj_throw_invalid(JNIEnv* env, const char* op, const char* message);
/* Sets this thread's ctensor error to CT_ERR_OUT_OF_MEMORY for op, then throws it. */
void ctj_throw_oom(JNIEnv* env, const char* op);
/* Throws CT_ERR_INVALID_ARGUMENT: array argument `name` of op must have 2 values (1 or more when got == 0). */
void ctj_throw_pair(JNIEnv* env, const char* op, const char* name, int got);
/* 1 if obj is a direct java.nio.Buffer: *data and *nbytes get its address and size in bytes. */
int ctj_direct_buffer(JNIEnv* env, jobject obj, void** data, int64_t* nbytes);
/* Element size in bytes of a Java primitive array (0 if obj is not one). */
int ctj_array_elem_size(JNIEnv* env, jobject obj);

/* Custom autograd function: results[i] get new handles; backward is an org.ctensor.internal.NativeBackward. */
ct_status ctj_custom_function_apply(JNIEnv* env, const char* name, jlongArray inputs, jlongArray outputs,
                                    jobject backward, jlongArray results);
/* Tensor hook: hook is an org.ctensor.internal.NativeHook; *id gets the hook id. */
ct_status ctj_tensor_register_hook(JNIEnv* env, ct_tensor t, jobject hook, int64_t* id);
/* Zero-copy tensor over a direct java.nio.Buffer from byte_offset on (contiguous); keeps the buffer alive. */
ct_status ctj_tensor_from_buffer(JNIEnv* env, jobject buffer, int64_t byte_offset, const int64_t* shape, int32_t ndim,
                                 ct_dtype dtype, ct_tensor* out);
/* ct_autograd_grad with Java arrays; grad_outputs may be null, grads_out must have inputs' length. */
ct_status ctj_autograd_grad(JNIEnv* env, jlongArray outputs, jlongArray grad_outputs, jlongArray inputs,
                            int32_t retain_graph, int32_t create_graph, int32_t allow_unused, jlongArray grads_out);
/* Calls the deleter of a DLManagedTensor the caller still owns (a failed import). */
void ctj_dlpack_delete(int64_t managed);
/* Calls the deleter of a DLManagedTensorVersioned the caller still owns. */
void ctj_dlpack_versioned_delete(int64_t managed);

#endif
