/* fashion_mnist.c - the demo: trains an MLP classifier on Fashion-MNIST through the ctensor C API only.
 * Reads the IDX files of Debian's dataset-fashion-mnist, trains 784-256-128-10 with Adam on minibatches,
 * prints one line per epoch (loss, train/test accuracy, seconds) and exits nonzero below the target accuracy. */
#include <ctensor.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#define CHECK(call)                                                                         \
    do {                                                                                    \
        ct_status st_ = (call);                                                             \
        if (st_ != CT_OK) {                                                                 \
            fprintf(stderr, "%s:%d: %s failed: %s: %s\n", __FILE__, __LINE__, #call,        \
                    ct_status_name(st_), ct_last_error());                                  \
            exit(2);                                                                        \
        }                                                                                   \
    } while (0)

typedef struct {
    int64_t n, rows, cols;
    float* images;   /* n x rows*cols, scaled to [0, 1] then normalised */
    int64_t* labels; /* n */
} dataset;

static uint32_t read_be32(const unsigned char* p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

/* Reads a whole gzip file into memory; returns NULL on failure. */
static unsigned char* read_gz(const char* path, size_t* size) {
    gzFile f = gzopen(path, "rb");
    size_t cap = 1 << 20, len = 0;
    unsigned char* buf;
    int n;
    if (!f) return NULL;
    buf = (unsigned char*)malloc(cap);
    while (buf && (n = gzread(f, buf + len, (unsigned)(cap - len))) > 0) {
        len += (size_t)n;
        if (len == cap) {
            unsigned char* bigger = (unsigned char*)realloc(buf, cap * 2);
            if (!bigger) { free(buf); buf = NULL; break; }
            buf = bigger;
            cap *= 2;
        }
    }
    gzclose(f);
    *size = len;
    return buf;
}

static int load(const char* dir, const char* prefix, dataset* d) {
    char path[1024];
    size_t isz = 0, lsz = 0;
    unsigned char *img, *lab;
    int64_t i, pixels;
    snprintf(path, sizeof path, "%s/%s-images-idx3-ubyte.gz", dir, prefix);
    img = read_gz(path, &isz);
    snprintf(path, sizeof path, "%s/%s-labels-idx1-ubyte.gz", dir, prefix);
    lab = read_gz(path, &lsz);
    if (!img || !lab || isz < 16 || lsz < 8 || read_be32(img) != 2051 || read_be32(lab) != 2049) {
        fprintf(stderr, "cannot read %s/%s-*.gz (install the Debian package dataset-fashion-mnist)\n", dir, prefix);
        free(img);
        free(lab);
        return 0;
    }
    d->n = read_be32(img + 4);
    d->rows = read_be32(img + 8);
    d->cols = read_be32(img + 12);
    pixels = d->rows * d->cols;
    if ((size_t)(16 + d->n * pixels) > isz || (size_t)(8 + d->n) > lsz) {
        fprintf(stderr, "truncated IDX file for %s\n", prefix);
        free(img);
        free(lab);
        return 0;
    }
    d->images = (float*)malloc((size_t)(d->n * pixels) * sizeof(float));
    d->labels = (int64_t*)malloc((size_t)d->n * sizeof(int64_t));
    for (i = 0; i < d->n * pixels; ++i) d->images[i] = ((float)img[16 + i] / 255.0f - 0.2860f) / 0.3530f;
    for (i = 0; i < d->n; ++i) d->labels[i] = lab[8 + i];
    free(img);
    free(lab);
    return 1;
}

/* A Linear layer's parameters, initialised like torch.nn.Linear: U(-1/sqrt(in), 1/sqrt(in)). */
typedef struct {
    ct_tensor weight, bias;
} linear_layer;

static ct_tensor uniform(const int64_t* shape, int32_t ndim, double bound, ct_generator gen) {
    ct_tensor u = NULL, two = NULL, scaled = NULL, shifted = NULL, out = NULL, half = NULL;
    CHECK(ct_rand(shape, ndim, CT_FLOAT32, ct_cpu(), gen, &u));
    CHECK(ct_wrapped_scalar(2.0 * bound, 0, &two));
    CHECK(ct_wrapped_scalar(bound, 0, &half));
    CHECK(ct_mul(u, two, &scaled));
    CHECK(ct_sub(scaled, half, 1.0, &shifted));
    CHECK(ct_detach(shifted, &out));
    CHECK(ct_tensor_set_requires_grad(out, 1));
    ct_tensor_release(u);
    ct_tensor_release(two);
    ct_tensor_release(half);
    ct_tensor_release(scaled);
    ct_tensor_release(shifted);
    return out;
}

static linear_layer make_linear(int64_t in, int64_t out, ct_generator gen) {
    linear_layer l;
    int64_t wshape[2];
    double bound = 1.0 / sqrt((double)in);
    wshape[0] = out;
    wshape[1] = in;
    l.weight = uniform(wshape, 2, bound, gen);
    l.bias = uniform(&out, 1, bound, gen);
    return l;
}

#define NUM_LAYERS 3

/* logits = L3(relu(L2(relu(L1(x))))) */
static ct_tensor forward(const linear_layer* layers, ct_tensor x) {
    ct_tensor h = ct_tensor_retain(x), next = NULL, act = NULL;
    int i;
    for (i = 0; i < NUM_LAYERS; ++i) {
        CHECK(ct_linear(h, layers[i].weight, layers[i].bias, &next));
        ct_tensor_release(h);
        if (i + 1 < NUM_LAYERS) {
            CHECK(ct_relu(next, &act));
            ct_tensor_release(next);
            h = act;
        } else {
            h = next;
        }
    }
    return h;
}

/* Batch [start, start+count) of d (rows in order given by perm, or sequential when perm is NULL). */
static void make_batch(const dataset* d, const int64_t* perm, int64_t start, int64_t count, float* xbuf,
                       int64_t* ybuf, ct_tensor* x, ct_tensor* y) {
    int64_t pixels = d->rows * d->cols, i, xshape[2], yshape[1];
    for (i = 0; i < count; ++i) {
        int64_t r = perm ? perm[start + i] : start + i;
        memcpy(xbuf + i * pixels, d->images + r * pixels, (size_t)pixels * sizeof(float));
        ybuf[i] = d->labels[r];
    }
    xshape[0] = count;
    xshape[1] = pixels;
    yshape[0] = count;
    CHECK(ct_tensor_from_data(xbuf, count * pixels * (int64_t)sizeof(float), xshape, 2, CT_FLOAT32, ct_cpu(), x));
    CHECK(ct_tensor_from_data(ybuf, count * (int64_t)sizeof(int64_t), yshape, 1, CT_INT64, ct_cpu(), y));
}

/* Number of correct predictions of logits for labels y. */
static int64_t count_correct(ct_tensor logits, ct_tensor y) {
    ct_tensor pred = NULL, hit = NULL, total = NULL;
    int64_t n = 0;
    CHECK(ct_argmax(logits, 1, 0, &pred));
    CHECK(ct_eq(pred, y, &hit));
    CHECK(ct_sum(hit, NULL, 0, 0, &total));
    CHECK(ct_tensor_item_int64(total, &n));
    ct_tensor_release(pred);
    ct_tensor_release(hit);
    ct_tensor_release(total);
    return n;
}

static double evaluate(const linear_layer* layers, const dataset* d, float* xbuf, int64_t* ybuf, int64_t batch) {
    int64_t correct = 0, start;
    int32_t prev = 0;
    CHECK(ct_set_grad_enabled(0, &prev));
    for (start = 0; start < d->n; start += batch) {
        int64_t count = d->n - start < batch ? d->n - start : batch;
        ct_tensor x = NULL, y = NULL, logits;
        make_batch(d, NULL, start, count, xbuf, ybuf, &x, &y);
        logits = forward(layers, x);
        correct += count_correct(logits, y);
        ct_tensor_release(logits);
        ct_tensor_release(x);
        ct_tensor_release(y);
    }
    CHECK(ct_set_grad_enabled(prev, NULL));
    return (double)correct / (double)d->n;
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char** argv) {
    const char* dir = getenv("FASHION_MNIST_DIR") ? getenv("FASHION_MNIST_DIR") : "/usr/share/datasets/fashion-mnist";
    int epochs = argc > 1 ? atoi(argv[1]) : 5;
    double target = argc > 2 ? atof(argv[2]) : 0.84;
    const int64_t batch = 128, eval_batch = 1000;
    dataset train, test;
    linear_layer layers[NUM_LAYERS];
    ct_tensor params[2 * NUM_LAYERS];
    ct_generator gen = NULL, shuffle_gen = NULL;
    ct_optimizer opt = NULL;
    float* xbuf;
    int64_t* ybuf;
    double test_acc = 0.0;
    int epoch, i;

    CHECK(ct_check_abi(CT_ABI_VERSION, CT_VERSION_MINOR));
    if (!load(dir, "train", &train) || !load(dir, "t10k", &test)) return 2;
    printf("ctensor %d: Fashion-MNIST %lld train / %lld test images, MLP 784-256-128-10, Adam, batch %lld, %d threads\n",
           ct_version(), (long long)train.n, (long long)test.n, (long long)batch, ct_get_num_threads());

    CHECK(ct_generator_new(42, &gen));
    CHECK(ct_generator_new(7, &shuffle_gen));
    layers[0] = make_linear(train.rows * train.cols, 256, gen);
    layers[1] = make_linear(256, 128, gen);
    layers[2] = make_linear(128, 10, gen);
    for (i = 0; i < NUM_LAYERS; ++i) {
        params[2 * i] = layers[i].weight;
        params[2 * i + 1] = layers[i].bias;
    }
    CHECK(ct_optim_adam_new(params, 2 * NUM_LAYERS, 1e-3, 0.9, 0.999, 1e-8, 0.0, &opt));
    /* buffers hold the larger of a training and an evaluation batch */
    xbuf = (float*)malloc((size_t)(eval_batch * train.rows * train.cols) * sizeof(float));
    ybuf = (int64_t*)malloc((size_t)eval_batch * sizeof(int64_t));

    for (epoch = 1; epoch <= epochs; ++epoch) {
        double t0 = now_seconds(), loss_sum = 0.0;
        int64_t correct = 0, start, steps = 0;
        ct_tensor perm_t = NULL;
        const int64_t* perm;
        CHECK(ct_randperm(train.n, ct_cpu(), shuffle_gen, &perm_t));
        CHECK(ct_tensor_data_ptr(perm_t, (void**)&perm));
        for (start = 0; start + batch <= train.n; start += batch) {
            ct_tensor x = NULL, y = NULL, logits, loss = NULL;
            double loss_value = 0.0;
            make_batch(&train, perm, start, batch, xbuf, ybuf, &x, &y);
            logits = forward(layers, x);
            CHECK(ct_cross_entropy(logits, y, CT_REDUCTION_MEAN, -100, &loss));
            CHECK(ct_optimizer_zero_grad(opt, 1));
            CHECK(ct_backward(loss, NULL, 0, 0));
            CHECK(ct_optimizer_step(opt));
            CHECK(ct_tensor_item(loss, &loss_value));
            loss_sum += loss_value;
            ++steps;
            {
                int32_t prev = 0;
                CHECK(ct_set_grad_enabled(0, &prev));
                correct += count_correct(logits, y);
                CHECK(ct_set_grad_enabled(prev, NULL));
            }
            ct_tensor_release(loss);
            ct_tensor_release(logits);
            ct_tensor_release(x);
            ct_tensor_release(y);
        }
        ct_tensor_release(perm_t);
        test_acc = evaluate(layers, &test, xbuf, ybuf, eval_batch);
        printf("epoch %d  loss %.4f  train acc %.2f%%  test acc %.2f%%  %.2f s\n", epoch, loss_sum / (double)steps,
               100.0 * (double)correct / (double)(steps * batch), 100.0 * test_acc, now_seconds() - t0);
        fflush(stdout);
    }

    ct_optimizer_release(opt);
    for (i = 0; i < NUM_LAYERS; ++i) {
        ct_tensor_release(layers[i].weight);
        ct_tensor_release(layers[i].bias);
    }
    ct_generator_release(gen);
    ct_generator_release(shuffle_gen);
    free(xbuf);
    free(ybuf);
    free(train.images);
    free(train.labels);
    free(test.images);
    free(test.labels);
    if (ct_live_handles() != 0) {
        fprintf(stderr, "leak: %lld live handles at exit\n", (long long)ct_live_handles());
        return 1;
    }
    if (test_acc < target) {
        fprintf(stderr, "test accuracy %.2f%% is below the target %.2f%%\n", 100.0 * test_acc, 100.0 * target);
        return 1;
    }
    printf("test accuracy %.2f%% >= target %.2f%%\n", 100.0 * test_acc, 100.0 * target);
    return 0;
}
