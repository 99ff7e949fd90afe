/* ctj_support.c - the hand-written half of the JNI library: caches classes at load, turns a ct_status into a
 * Java exception, and trampolines ctensor's C callbacks (custom backward, tensor hooks, buffer deleters) into
 * Java, attaching foreign threads to the JVM (and detaching the ones it attached). A Java exception thrown in a
 * callback becomes CT_ERR_CALLBACK with its text; it never unwinds through C. */
#include "ctj_support.h"

#include <dlpack/dlpack.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static JavaVM* g_vm;
static jclass g_callbacks;        /* org.ctensor.internal.Callbacks */
static jmethodID g_error;         /* static RuntimeException error(int, byte[]) */
static jmethodID g_describe;      /* static byte[] describe(Throwable) */
static jmethodID g_backward;      /* NativeBackward.backward(long[], long[]) -> int */
static jmethodID g_hook;          /* NativeHook.apply(long) -> long */
static jclass g_arrays[8];        /* primitive array classes */
static int g_array_sizes[8];
static jclass g_buffers[7];       /* java.nio.*Buffer classes */
static int g_buffer_sizes[7];

static jclass global_class(JNIEnv* env, const char* name) {
    jclass local = (*env)->FindClass(env, name);
    jclass global;
    if (!local) return NULL;
    global = (jclass)(*env)->NewGlobalRef(env, local);
    (*env)->DeleteLocalRef(env, local);
    return global;
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* reserved) {
    static const char* arrays[8] = {"[F", "[D", "[J", "[I", "[S", "[C", "[B", "[Z"};
    static const int array_sizes[8] = {4, 8, 8, 4, 2, 2, 1, 1};
    static const char* buffers[7] = {"java/nio/FloatBuffer", "java/nio/DoubleBuffer", "java/nio/LongBuffer",
                                     "java/nio/IntBuffer", "java/nio/ShortBuffer", "java/nio/CharBuffer",
                                     "java/nio/ByteBuffer"};
    static const int buffer_sizes[7] = {4, 8, 8, 4, 2, 2, 1};
    JNIEnv* env = NULL;
    jclass backward, hook;
    int i;
    (void)reserved;
    if ((*vm)->GetEnv(vm, (void**)&env, JNI_VERSION_1_8) != JNI_OK) return JNI_ERR;
    g_vm = vm;
    for (i = 0; i < 8; ++i) {
        if (!(g_arrays[i] = global_class(env, arrays[i]))) return JNI_ERR;
        g_array_sizes[i] = array_sizes[i];
    }
    for (i = 0; i < 7; ++i) {
        if (!(g_buffers[i] = global_class(env, buffers[i]))) return JNI_ERR;
        g_buffer_sizes[i] = buffer_sizes[i];
    }
    if (!(g_callbacks = global_class(env, "org/ctensor/internal/Callbacks"))) return JNI_ERR;
    g_error = (*env)->GetStaticMethodID(env, g_callbacks, "error", "(I[B)Ljava/lang/RuntimeException;");
    g_describe = (*env)->GetStaticMethodID(env, g_callbacks, "describe", "(Ljava/lang/Throwable;)[B");
    backward = (*env)->FindClass(env, "org/ctensor/internal/NativeBackward");
    hook = (*env)->FindClass(env, "org/ctensor/internal/NativeHook");
    if (!g_error || !g_describe || !backward || !hook) return JNI_ERR;
    g_backward = (*env)->GetMethodID(env, backward, "backward", "([J[J)I");
    g_hook = (*env)->GetMethodID(env, hook, "apply", "(J)J");
    if (!g_backward || !g_hook) return JNI_ERR;
    return JNI_VERSION_1_8;
}

/* ---- errors ---- */

static jbyteArray utf8_bytes(JNIEnv* env, const char* text) {
    jsize n = text ? (jsize)strlen(text) : 0;
    jbyteArray bytes = (*env)->NewByteArray(env, n);
    if (bytes && n) (*env)->SetByteArrayRegion(env, bytes, 0, n, (const jbyte*)text);
    return bytes;
}

void ctj_throw_status(JNIEnv* env, ct_status status) {
    jbyteArray message;
    jobject exception;
    if ((*env)->ExceptionCheck(env)) return;
    message = utf8_bytes(env, ct_last_error());
    if (!message) return; /* OutOfMemoryError pending */
    exception = (*env)->CallStaticObjectMethod(env, g_callbacks, g_error, (jint)status, message);
    if (exception && !(*env)->ExceptionCheck(env)) (*env)->Throw(env, (jthrowable)exception);
}

void ctj_throw_invalid(JNIEnv* env, const char* op, const char* message) {
    char text[512];
    snprintf(text, sizeof text, "%s: %s", op, message);
    ctj_throw_status(env, ct_set_error(CT_ERR_INVALID_ARGUMENT, text));
}

void ctj_throw_oom(JNIEnv* env, const char* op) {
    char text[256];
    snprintf(text, sizeof text, "%s: out of memory while converting the Java arguments", op);
    ctj_throw_status(env, ct_set_error(CT_ERR_OUT_OF_MEMORY, text));
}

void ctj_throw_pair(JNIEnv* env, const char* op, const char* name, int got) {
    char text[256];
    if (got == 0)
        snprintf(text, sizeof text, "%s: array argument %s must have at least 1 element", op, name);
    else
        snprintf(text, sizeof text, "%s: %s must have 2 values {h, w}, got %d", op, name, got);
    ctj_throw_status(env, ct_set_error(CT_ERR_INVALID_ARGUMENT, text));
}

int ctj_array_elem_size(JNIEnv* env, jobject obj) {
    int i;
    for (i = 0; i < 8; ++i)
        if ((*env)->IsInstanceOf(env, obj, g_arrays[i])) return g_array_sizes[i];
    return 0;
}

int ctj_direct_buffer(JNIEnv* env, jobject obj, void** data, int64_t* nbytes) {
    void* base = (*env)->GetDirectBufferAddress(env, obj);
    jlong capacity = (*env)->GetDirectBufferCapacity(env, obj);
    int i;
    if (!base || capacity < 0) return 0;
    for (i = 0; i < 7; ++i) {
        if ((*env)->IsInstanceOf(env, obj, g_buffers[i])) {
            *data = base;
            *nbytes = (int64_t)capacity * g_buffer_sizes[i];
            return 1;
        }
    }
    return 0;
}

/* ---- threads ---- */

/* The calling thread's JNIEnv, attaching it (as a daemon) when it is not a JVM thread; *attached says so. */
static JNIEnv* thread_env(int* attached) {
    JNIEnv* env = NULL;
    jint r;
    *attached = 0;
    if (!g_vm) return NULL;
    r = (*g_vm)->GetEnv(g_vm, (void**)&env, JNI_VERSION_1_8);
    if (r == JNI_EDETACHED) {
        if ((*g_vm)->AttachCurrentThreadAsDaemon(g_vm, (void**)&env, NULL) != JNI_OK) return NULL;
        *attached = 1;
    } else if (r != JNI_OK) {
        return NULL;
    }
    return env;
}

static void thread_done(int attached) {
    if (attached) (*g_vm)->DetachCurrentThread(g_vm);
}

/* Turns the pending Java exception into this thread's CT_ERR_CALLBACK error. */
static ct_status callback_failed(JNIEnv* env, const char* what) {
    char text[1024];
    jthrowable exception = (*env)->ExceptionOccurred(env);
    jbyteArray described;
    (*env)->ExceptionClear(env);
    described = (jbyteArray)(*env)->CallStaticObjectMethod(env, g_callbacks, g_describe, exception);
    if ((*env)->ExceptionCheck(env) || !described) {
        (*env)->ExceptionClear(env);
        snprintf(text, sizeof text, "%s threw a Java exception", what);
    } else {
        jsize n = (*env)->GetArrayLength(env, described);
        char detail[768];
        if (n > (jsize)sizeof detail - 1) n = (jsize)sizeof detail - 1;
        (*env)->GetByteArrayRegion(env, described, 0, n, (jbyte*)detail);
        detail[n] = '\0';
        snprintf(text, sizeof text, "%s threw %s", what, detail);
    }
    return ct_set_error(CT_ERR_CALLBACK, text);
}

static void release_global(void* ctx) {
    int attached;
    JNIEnv* env = thread_env(&attached);
    if (!env) return;
    (*env)->DeleteGlobalRef(env, (jobject)ctx);
    thread_done(attached);
}

static void buffer_deleter(void* data, void* ctx) {
    (void)data;
    release_global(ctx);
}

/* ---- custom backward ---- */

static ct_status backward_trampoline(void* ctx, const ct_tensor* grad_outputs, int32_t n_outputs,
                                     ct_tensor* grad_inputs, int32_t n_inputs) {
    int attached, i;
    ct_status status = CT_OK;
    JNIEnv* env = thread_env(&attached);
    jlongArray gout, gin;
    if (!env) return ct_set_error(CT_ERR_CALLBACK, "custom backward: cannot attach this thread to the JVM");
    if ((*env)->PushLocalFrame(env, 8) != 0) {
        (*env)->ExceptionClear(env);
        thread_done(attached);
        return ct_set_error(CT_ERR_OUT_OF_MEMORY, "custom backward: no room for JNI local references");
    }
    gout = (*env)->NewLongArray(env, n_outputs);
    gin = (*env)->NewLongArray(env, n_inputs);
    if (!gout || !gin) {
        status = callback_failed(env, "custom backward (argument arrays)");
    } else {
        jint r;
        for (i = 0; i < n_outputs; ++i) {
            jlong h = (jlong)(intptr_t)grad_outputs[i];
            (*env)->SetLongArrayRegion(env, gout, i, 1, &h);
        }
        r = (*env)->CallIntMethod(env, (jobject)ctx, g_backward, gout, gin);
        if ((*env)->ExceptionCheck(env)) {
            status = callback_failed(env, "custom backward");
        } else if (r != CT_OK) {
            status = (ct_status)r;
        } else {
            for (i = 0; i < n_inputs; ++i) {
                jlong h = 0;
                (*env)->GetLongArrayRegion(env, gin, i, 1, &h);
                grad_inputs[i] = (ct_tensor)(intptr_t)h;
            }
        }
    }
    (*env)->PopLocalFrame(env, NULL);
    thread_done(attached);
    return status;
}

/* Copies a Java long[] of handles into a malloc'd C array (at least one slot); NULL on OOM. */
static ct_tensor* handles_of(JNIEnv* env, jlongArray array, jsize n) {
    ct_tensor* out = (ct_tensor*)calloc((size_t)(n > 0 ? n : 1), sizeof(ct_tensor));
    jsize i;
    if (!out) return NULL;
    for (i = 0; i < n; ++i) {
        jlong h = 0;
        (*env)->GetLongArrayRegion(env, array, i, 1, &h);
        out[i] = (ct_tensor)(intptr_t)h;
    }
    return out;
}

static void store_handles(JNIEnv* env, jlongArray array, const ct_tensor* handles, jsize n) {
    jsize i;
    for (i = 0; i < n; ++i) {
        jlong h = (jlong)(intptr_t)handles[i];
        (*env)->SetLongArrayRegion(env, array, i, 1, &h);
    }
}

static ct_status invalid(const char* text) { return ct_set_error(CT_ERR_INVALID_ARGUMENT, text); }

ct_status ctj_custom_function_apply(JNIEnv* env, const char* name, jlongArray inputs, jlongArray outputs,
                                    jobject backward, jlongArray results) {
    jsize ni, no;
    ct_tensor *in, *out, *res;
    jobject ref;
    ct_status status;
    if (!inputs || !outputs || !backward || !results)
        return invalid("custom_function_apply: inputs, outputs, backward and results must not be null");
    ni = (*env)->GetArrayLength(env, inputs);
    no = (*env)->GetArrayLength(env, outputs);
    if ((*env)->GetArrayLength(env, results) != no)
        return invalid("custom_function_apply: results must have the length of outputs");
    in = handles_of(env, inputs, ni);
    out = handles_of(env, outputs, no);
    res = (ct_tensor*)calloc((size_t)(no > 0 ? no : 1), sizeof(ct_tensor));
    ref = (*env)->NewGlobalRef(env, backward);
    if (!in || !out || !res || !ref) {
        free(in);
        free(out);
        free(res);
        if (ref) (*env)->DeleteGlobalRef(env, ref);
        return ct_set_error(CT_ERR_OUT_OF_MEMORY, "custom_function_apply: out of memory");
    }
    /* ctx_release (release_global) runs once, even on failure */
    status = ct_custom_function_apply(name, in, ni, out, no, backward_trampoline, ref, release_global, res);
    if (status == CT_OK) store_handles(env, results, res, no);
    free(in);
    free(out);
    free(res);
    return status;
}

/* ---- hooks ---- */

static ct_status hook_trampoline(ct_tensor grad, void* ctx, ct_tensor* replacement) {
    int attached;
    ct_status status = CT_OK;
    JNIEnv* env = thread_env(&attached);
    jlong r;
    if (!env) return ct_set_error(CT_ERR_CALLBACK, "tensor hook: cannot attach this thread to the JVM");
    r = (*env)->CallLongMethod(env, (jobject)ctx, g_hook, (jlong)(intptr_t)grad);
    if ((*env)->ExceptionCheck(env))
        status = callback_failed(env, "tensor hook");
    else if (r != 0)
        *replacement = (ct_tensor)(intptr_t)r;
    thread_done(attached);
    return status;
}

ct_status ctj_tensor_register_hook(JNIEnv* env, ct_tensor t, jobject hook, int64_t* id) {
    jobject ref;
    if (!hook) return invalid("tensor_register_hook: hook must not be null");
    ref = (*env)->NewGlobalRef(env, hook);
    if (!ref) return ct_set_error(CT_ERR_OUT_OF_MEMORY, "tensor_register_hook: out of memory");
    /* destroy_ctx (release_global) runs once, also on failure */
    return ct_tensor_register_hook(t, hook_trampoline, ref, release_global, id);
}

/* ---- zero-copy buffers ---- */

ct_status ctj_tensor_from_buffer(JNIEnv* env, jobject buffer, int64_t byte_offset, const int64_t* shape, int32_t ndim,
                                 ct_dtype dtype, ct_tensor* out) {
    void* base = NULL;
    int64_t nbytes = 0, need;
    int32_t i, itemsize = ct_dtype_size(dtype);
    jobject ref;
    ct_status status;
    char text[256];
    if (!buffer || !ctj_direct_buffer(env, buffer, &base, &nbytes))
        return invalid("tensor_from_blob: the buffer must be a direct java.nio.Buffer");
    if (itemsize == 0) {
        snprintf(text, sizeof text, "tensor_from_blob: unknown dtype %d", (int)dtype);
        return ct_set_error(CT_ERR_DTYPE, text);
    }
    if (ndim < 0 || (ndim > 0 && !shape)) return invalid("tensor_from_blob: bad shape");
    need = itemsize;
    for (i = 0; i < ndim; ++i) {
        if (shape[i] < 0) {
            snprintf(text, sizeof text, "tensor_from_blob: negative size %lld in the shape", (long long)shape[i]);
            return invalid(text);
        }
        if (shape[i] != 0 && need > INT64_MAX / shape[i]) return invalid("tensor_from_blob: the shape overflows int64");
        need *= shape[i];
    }
    if (byte_offset < 0 || byte_offset > nbytes || need > nbytes - byte_offset) {
        snprintf(text, sizeof text,
                 "tensor_from_blob: the shape needs %lld bytes from offset %lld but the buffer has %lld bytes",
                 (long long)need, (long long)byte_offset, (long long)nbytes);
        return ct_set_error(CT_ERR_SHAPE, text);
    }
    if (((uintptr_t)base + (uintptr_t)byte_offset) % (uintptr_t)itemsize != 0)
        return invalid("tensor_from_blob: the buffer position is not aligned to the dtype's size");
    ref = (*env)->NewGlobalRef(env, buffer);
    if (!ref) return ct_set_error(CT_ERR_OUT_OF_MEMORY, "tensor_from_blob: out of memory");
    status = ct_tensor_from_blob((char*)base + byte_offset, shape, NULL, ndim, dtype, ct_cpu(), buffer_deleter, ref,
                                 out);
    if (status != CT_OK) (*env)->DeleteGlobalRef(env, ref); /* the deleter is not called on failure */
    return status;
}

/* ---- autograd.grad ---- */

ct_status ctj_autograd_grad(JNIEnv* env, jlongArray outputs, jlongArray grad_outputs, jlongArray inputs,
                            int32_t retain_graph, int32_t create_graph, int32_t allow_unused, jlongArray grads_out) {
    jsize no, ni;
    ct_tensor *outs, *gouts = NULL, *ins, *res;
    ct_status status;
    if (!outputs || !inputs || !grads_out) return invalid("autograd_grad: outputs, inputs and grads_out must not be null");
    no = (*env)->GetArrayLength(env, outputs);
    ni = (*env)->GetArrayLength(env, inputs);
    if (grad_outputs && (*env)->GetArrayLength(env, grad_outputs) != no)
        return invalid("autograd_grad: grad_outputs must have the length of outputs");
    if ((*env)->GetArrayLength(env, grads_out) != ni) return invalid("autograd_grad: grads_out must have the length of inputs");
    outs = handles_of(env, outputs, no);
    ins = handles_of(env, inputs, ni);
    res = (ct_tensor*)calloc((size_t)(ni > 0 ? ni : 1), sizeof(ct_tensor));
    if (grad_outputs) gouts = handles_of(env, grad_outputs, no);
    if (!outs || !ins || !res || (grad_outputs && !gouts)) {
        status = ct_set_error(CT_ERR_OUT_OF_MEMORY, "autograd_grad: out of memory");
    } else {
        status = ct_autograd_grad(outs, no, gouts, ins, ni, retain_graph, create_graph, allow_unused, res);
        if (status == CT_OK) store_handles(env, grads_out, res, ni);
    }
    free(outs);
    free(ins);
    free(res);
    free(gouts);
    return status;
}

/* ---- DLPack ---- */

void ctj_dlpack_delete(int64_t managed) {
    DLManagedTensor* m = (DLManagedTensor*)(intptr_t)managed;
    if (m && m->deleter) m->deleter(m);
}

void ctj_dlpack_versioned_delete(int64_t managed) {
    struct DLManagedTensorVersioned* m = (struct DLManagedTensorVersioned*)(intptr_t)managed;
    if (m && m->deleter) m->deleter(m);
}
