// capi_safetensors.cpp - C API: named tensors behind ct_safetensors handles, saved and loaded as safetensors files.
#include "capi/capi_common.h"
#include "io/safetensors.h"

using namespace ct;

namespace {

std::shared_ptr<NamedTensors> named_arg(ct_safetensors h, const char* op) {
    t_current_op = op;
    return std::static_pointer_cast<NamedTensors>(handle_get((uintptr_t)h, HandleKind::Safetensors, op, "f"));
}

std::string text_arg(const char* s, const char* op, const char* arg) {
    if (!s) fail(CT_ERR_INVALID_ARGUMENT, op, ": ", arg, " is NULL");
    return s;
}

ct_safetensors new_named_handle(std::shared_ptr<NamedTensors> named) {
    return (ct_safetensors)handle_new(HandleKind::Safetensors, std::static_pointer_cast<void>(std::move(named)));
}

size_t index_arg(int32_t i, const char* op) {
    if (i < 0) fail(CT_ERR_INDEX, op, ": index ", i, " is negative");
    return (size_t)i;
}

}  // namespace

extern "C" {

ct_status ct_safetensors_new(ct_safetensors* out) {
    return guard([&] {
        check_out(out, "safetensors_new");
        *out = new_named_handle(std::make_shared<NamedTensors>());
    });
}

ct_safetensors ct_safetensors_retain(ct_safetensors f) {
    handle_retain((uintptr_t)f, HandleKind::Safetensors);
    return f;
}

void ct_safetensors_release(ct_safetensors f) { handle_release((uintptr_t)f, HandleKind::Safetensors); }

ct_status ct_safetensors_add(ct_safetensors f, const char* name, ct_tensor t) {
    return guard([&] {
        const char* op = "safetensors_add";
        auto named = named_arg(f, op);
        named->add(text_arg(name, op, "name"), get_tensor_any_device(t, op, "t"));
    });
}

ct_status ct_safetensors_set_metadata(ct_safetensors f, const char* key, const char* value) {
    return guard([&] {
        const char* op = "safetensors_set_metadata";
        named_arg(f, op)->set_metadata(text_arg(key, op, "key"), text_arg(value, op, "value"));
    });
}

ct_status ct_safetensors_count(ct_safetensors f, int32_t* n) {
    return guard([&] {
        check_out(n, "safetensors_count", "n");
        *n = (int32_t)named_arg(f, "safetensors_count")->size();
    });
}

ct_status ct_safetensors_name(ct_safetensors f, int32_t i, char* buf, int32_t cap, int32_t* len) {
    return guard([&] {
        const char* op = "safetensors_name";
        text_out(named_arg(f, op)->name(index_arg(i, op)), buf, cap, len, op);
    });
}

ct_status ct_safetensors_get(ct_safetensors f, const char* name, ct_tensor* out) {
    return guard([&] {
        const char* op = "safetensors_get";
        check_out(out, op);
        *out = new_tensor_handle(named_arg(f, op)->get(text_arg(name, op, "name")));
    });
}

ct_status ct_safetensors_metadata_count(ct_safetensors f, int32_t* n) {
    return guard([&] {
        check_out(n, "safetensors_metadata_count", "n");
        *n = (int32_t)named_arg(f, "safetensors_metadata_count")->metadata_size();
    });
}

ct_status ct_safetensors_metadata_key(ct_safetensors f, int32_t i, char* buf, int32_t cap, int32_t* len) {
    return guard([&] {
        const char* op = "safetensors_metadata_key";
        text_out(named_arg(f, op)->metadata_key(index_arg(i, op)), buf, cap, len, op);
    });
}

ct_status ct_safetensors_metadata_get(ct_safetensors f, const char* key, char* buf, int32_t cap, int32_t* len) {
    return guard([&] {
        const char* op = "safetensors_metadata_get";
        text_out(named_arg(f, op)->metadata_value(text_arg(key, op, "key")), buf, cap, len, op);
    });
}

ct_status ct_save_safetensors(ct_safetensors f, const char* path) {
    return guard([&] {
        const char* op = "save_safetensors";
        save_safetensors(*named_arg(f, op), text_arg(path, op, "path"));
    });
}

ct_status ct_load_safetensors(const char* path, ct_device device, int32_t map, ct_safetensors* out) {
    return guard([&] {
        const char* op = "load_safetensors";
        check_out(out, op);
        Device d = device_arg(device, op);
        *out = new_named_handle(load_safetensors(text_arg(path, op, "path"), d, map != 0));
    });
}

}  // extern "C"
