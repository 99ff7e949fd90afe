/* ctj_typemaps.i - the Java typemaps of ctensor.i. Conventions: handles, devices (type << 32 | index) and
 * addresses are Java longs; every wrapped function returning ct_status returns a Java long that carries its one
 * out-handle or out-scalar (0 when it has none) and throws a CTensorException (in the "ret" typemap, after every
 * array is released) when the status is not CT_OK; arrays are sized by their Java length, never trusted. */

%apply long long { int64_t };
%apply int { int32_t };

/* ---- Java long pass-through types ---- */
%define CTJ_JAVA_LONG(TYPE)
%typemap(jni) TYPE "jlong"
%typemap(jtype) TYPE "long"
%typemap(jstype) TYPE "long"
%typemap(javain) TYPE "$javainput"
%typemap(javaout) TYPE { return $jnicall; }
%enddef

/* uint64_t seeds: the bits of a Java long. */
CTJ_JAVA_LONG(uint64_t)
%typemap(in) uint64_t %{ $1 = (uint64_t)$input; %}

/* ---- handles ---- */
%define CTJ_HANDLE(TYPE)
CTJ_JAVA_LONG(TYPE)
%typemap(in) TYPE %{ $1 = (TYPE)(intptr_t)$input; %}
%typemap(out) TYPE %{ $result = (jlong)(intptr_t)$1; %}
%typemap(in, numinputs=0) TYPE* out (TYPE temp = NULL) %{ $1 = &temp; %}
%typemap(argout) TYPE* out %{ $result = (jlong)(intptr_t)temp$argnum; %}
%enddef
CTJ_HANDLE(ct_tensor)
CTJ_HANDLE(ct_generator)
CTJ_HANDLE(ct_optimizer)
CTJ_HANDLE(ct_safetensors)
CTJ_HANDLE(ct_process_group)
CTJ_HANDLE(ct_work)
CTJ_HANDLE(ct_data_parallel)
%apply ct_tensor* out { ct_tensor* grad };

/* ---- status: thrown after cleanup; a few calls return it as a value ---- */
CTJ_JAVA_LONG(ct_status)
%typemap(out) ct_status %{ $result = 0; %}
%typemap(ret) ct_status %{ if ($1 != CT_OK) ctj_throw_status(jenv, $1); %}
%typemap(out) ct_status ct_set_error, ct_status ct_last_status %{ $result = (jlong)$1; %}
%typemap(ret) ct_status ct_set_error, ct_status ct_last_status ""
%apply int { ct_status status };

/* ---- devices: (type << 32) | index ---- */
CTJ_JAVA_LONG(ct_device)
%typemap(in) ct_device %{ $1.type = (int32_t)($input >> 32); $1.index = (int32_t)($input & 0xffffffff); %}
%typemap(out) ct_device %{ $result = ((jlong)$1.type << 32) | (jlong)(uint32_t)$1.index; %}
%typemap(in, numinputs=0) ct_device* device (ct_device temp) %{ temp.type = 0; temp.index = 0; $1 = &temp; %}
%typemap(argout) ct_device* device %{ $result = ((jlong)temp$argnum.type << 32) | (jlong)(uint32_t)temp$argnum.index; %}

/* ---- single out-scalars become the return value ---- */
%define CTJ_OUT_SCALAR(TYPE, NAME)
%typemap(in, numinputs=0) TYPE* NAME (TYPE temp = 0) %{ $1 = &temp; %}
%typemap(argout) TYPE* NAME %{ $result = (jlong)(intptr_t)temp$argnum; %}
%enddef
CTJ_OUT_SCALAR(int32_t, ndim)
CTJ_OUT_SCALAR(int64_t, numel)
CTJ_OUT_SCALAR(int64_t, offset)
CTJ_OUT_SCALAR(ct_dtype, dtype)
CTJ_OUT_SCALAR(int32_t, contiguous)
CTJ_OUT_SCALAR(void*, data)
CTJ_OUT_SCALAR(int64_t, version)
CTJ_OUT_SCALAR(int32_t, shares)
CTJ_OUT_SCALAR(int64_t, len)
CTJ_OUT_SCALAR(int32_t, len)
CTJ_OUT_SCALAR(int64_t, value)
CTJ_OUT_SCALAR(int32_t, requires_grad)
CTJ_OUT_SCALAR(int32_t, is_leaf)
CTJ_OUT_SCALAR(int32_t, previous)
CTJ_OUT_SCALAR(int64_t, id)
CTJ_OUT_SCALAR(int32_t, n)
CTJ_OUT_SCALAR(int64_t, step)
CTJ_OUT_SCALAR(int32_t, rank)
CTJ_OUT_SCALAR(int32_t, size)
CTJ_OUT_SCALAR(int32_t, done)
CTJ_OUT_SCALAR(int32_t, enabled)  /* ct_autocast_is_enabled (issue 15) */
CTJ_OUT_SCALAR(int32_t, policy)   /* ct_autocast_policy (issue 15) */
CTJ_OUT_SCALAR(int32_t, castable) /* ct_can_cast (issue 15) */

/* double outs travel as their bits; the Java method converts them back */
%typemap(in, numinputs=0) double* value (double temp = 0), double* lr (double temp = 0) %{ $1 = &temp; %}
%typemap(argout) double* value, double* lr %{ { jdouble d_ = temp$argnum; memcpy(&$result, &d_, sizeof d_); } %}
%typemap(jstype) ct_status ct_tensor_item, ct_status ct_optimizer_get_hparam, ct_status ct_optimizer_get_lr "double"
%typemap(javaout) ct_status ct_tensor_item, ct_status ct_optimizer_get_hparam, ct_status ct_optimizer_get_lr {
    return Double.longBitsToDouble($jnicall);
  }

/* ---- long[] in: (pointer, count) pairs sized by the Java array; null means NULL, 0 ---- */
%define CTJ_LONGS_IN(ELEM_T, PTR, LEN, CONV)
%typemap(jni) (const ELEM_T* PTR, int32_t LEN) "jlongArray"
%typemap(jtype) (const ELEM_T* PTR, int32_t LEN) "long[]"
%typemap(jstype) (const ELEM_T* PTR, int32_t LEN) "long[]"
%typemap(javain) (const ELEM_T* PTR, int32_t LEN) "$javainput"
%typemap(in) (const ELEM_T* PTR, int32_t LEN) (jlong small[16], jlong* buf = NULL, ELEM_T conv[16], ELEM_T* cbuf = NULL) %{
  $1 = NULL;
  $2 = 0;
  if ($input) {
    jsize n_ = (*jenv)->GetArrayLength(jenv, $input), i_;
    buf = n_ <= 16 ? small : (jlong*)malloc(sizeof(jlong) * (size_t)n_);
    cbuf = n_ <= 16 ? conv : (ELEM_T*)malloc(sizeof(ELEM_T) * (size_t)n_);
    if (!buf || !cbuf) { ctj_throw_oom(jenv, "$symname"); return $null; }
    (*jenv)->GetLongArrayRegion(jenv, $input, 0, n_, buf);
    for (i_ = 0; i_ < n_; ++i_) cbuf[i_] = CONV(buf[i_]);
    $1 = cbuf;
    $2 = (int32_t)n_;
  }
%}
%typemap(freearg) (const ELEM_T* PTR, int32_t LEN) %{
  if (buf$argnum != small$argnum) free(buf$argnum);
  if (cbuf$argnum != conv$argnum) free((void*)cbuf$argnum);
%}
%enddef
#define CTJ_AS_INT64(v) ((int64_t)(v))
#define CTJ_AS_TENSOR(v) ((ct_tensor)(intptr_t)(v))
#define CTJ_AS_INT32(v) ((int32_t)(v))
%{
#define CTJ_AS_INT32(v) ((int32_t)(v))
#define CTJ_AS_INT64(v) ((int64_t)(v))
#define CTJ_AS_TENSOR(v) ((ct_tensor)(intptr_t)(v))
%}
CTJ_LONGS_IN(int64_t, shape, ndim, CTJ_AS_INT64)
CTJ_LONGS_IN(int64_t, perm, ndim, CTJ_AS_INT64)
CTJ_LONGS_IN(int64_t, dims, ndims, CTJ_AS_INT64)
CTJ_LONGS_IN(int64_t, shifts, nshifts, CTJ_AS_INT64)
CTJ_LONGS_IN(ct_tensor, tensors, n, CTJ_AS_TENSOR)
CTJ_LONGS_IN(ct_tensor, operands, n, CTJ_AS_TENSOR)
CTJ_LONGS_IN(ct_tensor, params, n, CTJ_AS_TENSOR)
CTJ_LONGS_IN(ct_tensor, outputs, n, CTJ_AS_TENSOR)
CTJ_LONGS_IN(ct_tensor, index_list, n, CTJ_AS_TENSOR)
CTJ_LONGS_IN(int32_t, ranks, n, CTJ_AS_INT32)
CTJ_LONGS_IN(ct_tensor, grads, n, CTJ_AS_TENSOR)  /* ct_amp_non_finite_check_and_unscale_ (issue 15) */
CTJ_LONGS_IN(ct_tensor, weights, num_weights, CTJ_AS_TENSOR)
CTJ_LONGS_IN(int64_t, normalized_shape, n, CTJ_AS_INT64)

/* ---- a long[] whose length the call takes in another argument (ct_ctc_loss's lengths and their n): copied
 * whole; the Java layer passes n = the arrays' length ---- */
%define CTJ_LONGS_ARRAY(NAME)
%typemap(jni) const int64_t* NAME "jlongArray"
%typemap(jtype) const int64_t* NAME "long[]"
%typemap(jstype) const int64_t* NAME "long[]"
%typemap(javain) const int64_t* NAME "$javainput"
%typemap(in) const int64_t* NAME (jlong* buf = NULL) %{
  $1 = NULL;
  if ($input) {
    jsize n_ = (*jenv)->GetArrayLength(jenv, $input);
    buf = (jlong*)malloc(sizeof(jlong) * (size_t)(n_ > 0 ? n_ : 1));
    if (!buf) { ctj_throw_oom(jenv, "$symname"); return $null; }
    (*jenv)->GetLongArrayRegion(jenv, $input, 0, n_, buf);
    $1 = (const int64_t*)buf;
  }
%}
%typemap(freearg) const int64_t* NAME %{ free(buf$argnum); %}
%enddef
CTJ_LONGS_ARRAY(input_lengths)
CTJ_LONGS_ARRAY(target_lengths)
CTJ_LONGS_ARRAY(batch_sizes)

/* ---- {h, w} pairs: exactly two values, or null ---- */
%define CTJ_HW(NAME)
%typemap(jni) const int64_t* NAME "jlongArray"
%typemap(jtype) const int64_t* NAME "long[]"
%typemap(jstype) const int64_t* NAME "long[]"
%typemap(javain) const int64_t* NAME "$javainput"
%typemap(in) const int64_t* NAME (jlong pair[2]) %{
  $1 = NULL;
  if ($input) {
    jsize n_ = (*jenv)->GetArrayLength(jenv, $input);
    if (n_ != 2) { ctj_throw_pair(jenv, "$symname", "$1_name", (int)n_); return $null; }
    (*jenv)->GetLongArrayRegion(jenv, $input, 0, 2, pair);
    $1 = ($1_ltype)pair;
  }
%}
%enddef
CTJ_HW(stride)
CTJ_HW(padding)
CTJ_HW(dilation)
CTJ_HW(kernel)
CTJ_HW(output_size)

/* ---- long[] out: (buffer, capacity) pairs; the C call fills at most capacity entries ---- */
%define CTJ_LONGS_OUT(PTR_T, PTR, CAP_T, CAP, CONV)
%typemap(jni) (PTR_T* PTR, CAP_T CAP) "jlongArray"
%typemap(jtype) (PTR_T* PTR, CAP_T CAP) "long[]"
%typemap(jstype) (PTR_T* PTR, CAP_T CAP) "long[]"
%typemap(javain) (PTR_T* PTR, CAP_T CAP) "$javainput"
%typemap(in) (PTR_T* PTR, CAP_T CAP) (jlongArray arr = NULL, PTR_T small[16], PTR_T* buf = NULL) %{
  arr = $input;
  $2 = arr ? (CAP_T)(*jenv)->GetArrayLength(jenv, arr) : 0;
  buf = $2 <= 16 ? small : (PTR_T*)calloc((size_t)$2, sizeof(PTR_T));
  if (!buf) { ctj_throw_oom(jenv, "$symname"); return $null; }
  memset(buf, 0, sizeof(PTR_T) * (size_t)($2 <= 16 ? 16 : $2));
  $1 = buf;
%}
%typemap(argout) (PTR_T* PTR, CAP_T CAP) %{
  if (arr$argnum) {
    jsize i_;
    for (i_ = 0; i_ < (jsize)$2; ++i_) {
      jlong v_ = CONV(buf$argnum[i_]);
      (*jenv)->SetLongArrayRegion(jenv, arr$argnum, i_, 1, &v_);
    }
  }
%}
%typemap(freearg) (PTR_T* PTR, CAP_T CAP) %{ if (buf$argnum != small$argnum) free(buf$argnum); %}
%enddef
#define CTJ_FROM_INT64(v) ((jlong)(v))
#define CTJ_FROM_TENSOR(v) ((jlong)(intptr_t)(v))
%{
#define CTJ_FROM_INT64(v) ((jlong)(v))
#define CTJ_FROM_TENSOR(v) ((jlong)(intptr_t)(v))
%}
CTJ_LONGS_OUT(int64_t, dims, int32_t, cap, CTJ_FROM_INT64)
CTJ_LONGS_OUT(int64_t, strides, int32_t, cap, CTJ_FROM_INT64)
CTJ_LONGS_OUT(ct_tensor, outs, int32_t, cap, CTJ_FROM_TENSOR)

/* ---- optional single outs as long[1] (null passes NULL) ---- */
%define CTJ_OPT_OUT(PTR_T, NAME, CONV)
%typemap(jni) PTR_T* NAME "jlongArray"
%typemap(jtype) PTR_T* NAME "long[]"
%typemap(jstype) PTR_T* NAME "long[]"
%typemap(javain) PTR_T* NAME "$javainput"
%typemap(in) PTR_T* NAME (jlongArray arr = NULL, PTR_T temp = 0) %{
  arr = $input;
  $1 = NULL;
  if (arr) {
    if ((*jenv)->GetArrayLength(jenv, arr) < 1) { ctj_throw_pair(jenv, "$symname", "$1_name", 0); return $null; }
    $1 = &temp;
  }
%}
%typemap(argout) PTR_T* NAME %{
  if (arr$argnum) { jlong v_ = CONV(temp$argnum); (*jenv)->SetLongArrayRegion(jenv, arr$argnum, 0, 1, &v_); }
%}
%enddef
CTJ_OPT_OUT(ct_tensor, values, CTJ_FROM_TENSOR)
CTJ_OPT_OUT(ct_tensor, indices, CTJ_FROM_TENSOR)
CTJ_OPT_OUT(ct_tensor, inverse, CTJ_FROM_TENSOR)
CTJ_OPT_OUT(ct_tensor, counts, CTJ_FROM_TENSOR)
CTJ_OPT_OUT(ct_tensor, indices_out, CTJ_FROM_TENSOR)
/* torch.linalg's several outputs (ct_linalg_slogdet, _qr, _eigh, _svd) */
CTJ_OPT_OUT(ct_tensor, sign, CTJ_FROM_TENSOR)
CTJ_OPT_OUT(ct_tensor, logabsdet, CTJ_FROM_TENSOR)
CTJ_OPT_OUT(ct_tensor, q, CTJ_FROM_TENSOR)
CTJ_OPT_OUT(ct_tensor, r, CTJ_FROM_TENSOR)
CTJ_OPT_OUT(ct_tensor, eigenvalues, CTJ_FROM_TENSOR)
CTJ_OPT_OUT(ct_tensor, eigenvectors, CTJ_FROM_TENSOR)
CTJ_OPT_OUT(ct_tensor, u, CTJ_FROM_TENSOR)
CTJ_OPT_OUT(ct_tensor, s, CTJ_FROM_TENSOR)
CTJ_OPT_OUT(ct_tensor, vh, CTJ_FROM_TENSOR)
/* ct_multi_head_attention_forward's attention weights (NULL without need_weights) */
CTJ_OPT_OUT(ct_tensor, out_weights, CTJ_FROM_TENSOR)
/* the recurrent nets' final states (ct_rnn, ct_rnn_cell) */
CTJ_OPT_OUT(ct_tensor, hy, CTJ_FROM_TENSOR)
CTJ_OPT_OUT(ct_tensor, cy, CTJ_FROM_TENSOR)
CTJ_OPT_OUT(int64_t, allocated, CTJ_FROM_INT64)
CTJ_OPT_OUT(int64_t, reserved, CTJ_FROM_INT64)
CTJ_OPT_OUT(int64_t, peak, CTJ_FROM_INT64)
CTJ_OPT_OUT(int64_t, cached, CTJ_FROM_INT64)
CTJ_OPT_OUT(int64_t, limit, CTJ_FROM_INT64)
/* ct_linalg_lstsq_ex (issue 14) */
CTJ_OPT_OUT(ct_tensor, solution, CTJ_FROM_TENSOR)
CTJ_OPT_OUT(ct_tensor, residuals, CTJ_FROM_TENSOR)
CTJ_OPT_OUT(ct_tensor, rank, CTJ_FROM_TENSOR)
CTJ_OPT_OUT(ct_tensor, singular_values, CTJ_FROM_TENSOR)

/* ---- byte[] out for text: (buffer, capacity) ---- */
%define CTJ_BYTES_OUT(NAME, CAP_T, CAP)
%typemap(jni) (char* NAME, CAP_T CAP) "jbyteArray"
%typemap(jtype) (char* NAME, CAP_T CAP) "byte[]"
%typemap(jstype) (char* NAME, CAP_T CAP) "byte[]"
%typemap(javain) (char* NAME, CAP_T CAP) "$javainput"
%typemap(in) (char* NAME, CAP_T CAP) (jbyteArray arr = NULL) %{
  arr = $input;
  $1 = NULL;
  $2 = arr ? (CAP_T)(*jenv)->GetArrayLength(jenv, arr) : 0;
  if ($2 > 0) {
    $1 = (char*)calloc((size_t)$2, 1);
    if (!$1) { ctj_throw_oom(jenv, "$symname"); return $null; }
  }
%}
%typemap(argout) (char* NAME, CAP_T CAP) %{
  if ($1) (*jenv)->SetByteArrayRegion(jenv, arr$argnum, 0, (jsize)$2, (const jbyte*)$1);
%}
%typemap(freearg) (char* NAME, CAP_T CAP) %{ free($1); %}
%enddef
CTJ_BYTES_OUT(buf, int64_t, cap)
CTJ_BYTES_OUT(buf, int32_t, cap)
CTJ_BYTES_OUT(reason, int32_t, cap)

/* ---- host data: a Java primitive array (pinned only around the call) or a direct java.nio.Buffer ---- */
%define CTJ_HOST_DATA(PTR_T, NAME, RELEASE_MODE)
%typemap(jni) (PTR_T* NAME, int64_t nbytes) "jobject"
%typemap(jtype) (PTR_T* NAME, int64_t nbytes) "Object"
%typemap(jstype) (PTR_T* NAME, int64_t nbytes) "Object"
%typemap(javain) (PTR_T* NAME, int64_t nbytes) "$javainput"
%typemap(in) (PTR_T* NAME, int64_t nbytes) (jobject arr = NULL, int pinned = 0) %{
  $1 = NULL;
  $2 = 0;
  if ($input) {
    int esz_ = ctj_array_elem_size(jenv, $input);
    if (esz_ > 0) {
      arr = $input;
      $2 = (int64_t)(*jenv)->GetArrayLength(jenv, (jarray)arr) * esz_;
    } else if (!ctj_direct_buffer(jenv, $input, (void**)&$1, &$2)) {
      ctj_throw_invalid(jenv, "$symname", "data must be a Java primitive array or a direct java.nio.Buffer");
      return $null;
    }
  }
%}
/* pinned after every other argument is converted: no JNI call happens while the array is held */
%typemap(check) (PTR_T* NAME, int64_t nbytes) %{
  if (arr$argnum) {
    $1 = (*jenv)->GetPrimitiveArrayCritical(jenv, (jarray)arr$argnum, NULL);
    if (!$1) return $null;
    pinned$argnum = 1;
  }
%}
%typemap(freearg) (PTR_T* NAME, int64_t nbytes) %{
  if (pinned$argnum) (*jenv)->ReleasePrimitiveArrayCritical(jenv, (jarray)arr$argnum, (void*)$1, RELEASE_MODE);
%}
%enddef
CTJ_HOST_DATA(const void, data, JNI_ABORT)
CTJ_HOST_DATA(void, dst, 0)

/* ---- C strings returned by the library: UTF-8 bytes decoded in Java (invalid bytes are replaced) ---- */
%typemap(jni) const char* "jbyteArray"
%typemap(jtype) const char* "byte[]"
%typemap(out) const char* %{
  {
    jsize n_ = $1 ? (jsize)strlen($1) : 0;
    $result = (*jenv)->NewByteArray(jenv, n_);
    if ($result && n_) (*jenv)->SetByteArrayRegion(jenv, $result, 0, n_, (const jbyte*)$1);
  }
%}
%typemap(javaout) const char* { return org.ctensor.internal.Callbacks.utf8($jnicall); }
/* ... while const char* arguments stay Java Strings */
%typemap(jni) const char* name, const char* message, const char* equation, const char* key, const char* value,
              const char* path, const char* ord "jstring"
%typemap(jtype) const char* name, const char* message, const char* equation, const char* key, const char* value,
                const char* path, const char* ord "String"
%typemap(jni) const char* op "jstring"    /* ct_autocast_policy (issue 15) */
%typemap(jtype) const char* op "String"

/* ---- DLPack capsules are addresses ---- */
%define CTJ_DLPACK(TYPE)
CTJ_JAVA_LONG(TYPE*)
%typemap(in) TYPE* %{ $1 = (TYPE*)(intptr_t)$input; %}
%typemap(in, numinputs=0) TYPE** out (TYPE* temp = NULL) %{ $1 = &temp; %}
%typemap(argout) TYPE** out %{ $result = (jlong)(intptr_t)temp$argnum; %}
%enddef
CTJ_DLPACK(struct DLManagedTensor)
CTJ_DLPACK(struct DLManagedTensorVersioned)

/* ---- JNI pieces of the hand-written wrappers ---- */
%typemap(in, numinputs=0) JNIEnv* env %{ $1 = jenv; %}
%typemap(jtype) jobject backward "org.ctensor.internal.NativeBackward"
%typemap(jstype) jobject backward "org.ctensor.internal.NativeBackward"
%typemap(jtype) jobject hook "org.ctensor.internal.NativeHook"
%typemap(jstype) jobject hook "org.ctensor.internal.NativeHook"
%typemap(jtype) jobject buffer "java.nio.Buffer"
%typemap(jstype) jobject buffer "java.nio.Buffer"

/* ---- more reductions and products (issue 14): ct_aminmax, ct_var_mean / ct_std_mean, ct_tensordot ---- */
CTJ_OPT_OUT(ct_tensor, min, CTJ_FROM_TENSOR)
CTJ_OPT_OUT(ct_tensor, max, CTJ_FROM_TENSOR)
CTJ_OPT_OUT(ct_tensor, var, CTJ_FROM_TENSOR)
CTJ_OPT_OUT(ct_tensor, std, CTJ_FROM_TENSOR)
CTJ_OPT_OUT(ct_tensor, mean, CTJ_FROM_TENSOR)
CTJ_LONGS_IN(int64_t, dims_a, ndims_a, CTJ_AS_INT64)
CTJ_LONGS_IN(int64_t, dims_b, ndims_b, CTJ_AS_INT64)
