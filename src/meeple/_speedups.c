/*
 * meeple._speedups: the record loop of the log reader, compiled.
 *
 * read_records() does exactly what the pure-Python fast path
 * meeple.engine.reader._read_records_py does, and accepts exactly the same
 * logs: it walks the record frames, checks each link of the BLAKE2b-128 hash
 * chain, decodes each body with msgpack's unpackb, checks the record's shape
 * and builds its messages (setting their slots itself where a message has only
 * int, str, bool or bytes fields, else with the decoders of the log's type table). At the
 * first thing amiss it returns None, and the reader's checking loop names the
 * problem. Building the package without a C compiler skips this module; the
 * reader then uses the pure-Python loop (tests/test_speedups.py holds the two
 * to the same results).
 *
 * BLAKE2b is implemented here from RFC 7693 (unkeyed, 16-byte digest, no salt
 * or personalisation), as the log format defines the chain with it.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define HASH_SIZE 16
#define MAX_FRAME (16 * 1024 * 1024)

/* -- BLAKE2b (RFC 7693) --------------------------------------------------- */

static const uint64_t IV[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
    0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};

static const uint8_t SIGMA[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
};

typedef struct {
    uint64_t h[8];
    uint64_t t;       /* bytes compressed so far (logs are far below 2**64 bytes) */
    uint8_t buf[128];
    size_t filled;
} blake2b_state;

static inline uint64_t rotr64(uint64_t x, unsigned n) { return (x >> n) | (x << (64 - n)); }

static inline uint64_t load64(const uint8_t *p)
{
    return (uint64_t)p[0] | ((uint64_t)p[1] << 8) | ((uint64_t)p[2] << 16) | ((uint64_t)p[3] << 24) |
           ((uint64_t)p[4] << 32) | ((uint64_t)p[5] << 40) | ((uint64_t)p[6] << 48) | ((uint64_t)p[7] << 56);
}

#define G(a, b, c, d, x, y)          \
    do {                             \
        v[a] = v[a] + v[b] + (x);    \
        v[d] = rotr64(v[d] ^ v[a], 32); \
        v[c] = v[c] + v[d];          \
        v[b] = rotr64(v[b] ^ v[c], 24); \
        v[a] = v[a] + v[b] + (y);    \
        v[d] = rotr64(v[d] ^ v[a], 16); \
        v[c] = v[c] + v[d];          \
        v[b] = rotr64(v[b] ^ v[c], 63); \
    } while (0)

static void compress(blake2b_state *s, const uint8_t *block, int last)
{
    uint64_t v[16], m[16];
    for (int i = 0; i < 16; i++)
        m[i] = load64(block + 8 * i);
    for (int i = 0; i < 8; i++) {
        v[i] = s->h[i];
        v[i + 8] = IV[i];
    }
    v[12] ^= s->t;
    if (last)
        v[14] = ~v[14];
    /* the rounds unrolled, so the message schedule indexes are constants */
#define ROUND(r)                                                   \
    do {                                                           \
        G(0, 4, 8, 12, m[SIGMA[r][0]], m[SIGMA[r][1]]);            \
        G(1, 5, 9, 13, m[SIGMA[r][2]], m[SIGMA[r][3]]);            \
        G(2, 6, 10, 14, m[SIGMA[r][4]], m[SIGMA[r][5]]);           \
        G(3, 7, 11, 15, m[SIGMA[r][6]], m[SIGMA[r][7]]);           \
        G(0, 5, 10, 15, m[SIGMA[r][8]], m[SIGMA[r][9]]);           \
        G(1, 6, 11, 12, m[SIGMA[r][10]], m[SIGMA[r][11]]);         \
        G(2, 7, 8, 13, m[SIGMA[r][12]], m[SIGMA[r][13]]);          \
        G(3, 4, 9, 14, m[SIGMA[r][14]], m[SIGMA[r][15]]);          \
    } while (0)
    ROUND(0);
    ROUND(1);
    ROUND(2);
    ROUND(3);
    ROUND(4);
    ROUND(5);
    ROUND(6);
    ROUND(7);
    ROUND(8);
    ROUND(9);
    ROUND(10);
    ROUND(11);
#undef ROUND
    for (int i = 0; i < 8; i++)
        s->h[i] ^= v[i] ^ v[i + 8];
}

static void blake2b_init(blake2b_state *s)
{
    memcpy(s->h, IV, sizeof IV);
    s->h[0] ^= 0x01010000ULL ^ HASH_SIZE; /* depth 1, fanout 1, no key, 16-byte digest */
    s->t = 0;
    s->filled = 0;
}

static void blake2b_update(blake2b_state *s, const uint8_t *in, size_t len)
{
    while (len > 0) {
        if (s->filled == 128) { /* the buffer is compressed only once more input follows */
            s->t += 128;
            compress(s, s->buf, 0);
            s->filled = 0;
        }
        size_t take = 128 - s->filled;
        if (take > len)
            take = len;
        memcpy(s->buf + s->filled, in, take);
        s->filled += take;
        in += take;
        len -= take;
    }
}

static void blake2b_final(blake2b_state *s, uint8_t out[HASH_SIZE])
{
    s->t += s->filled;
    memset(s->buf + s->filled, 0, 128 - s->filled);
    compress(s, s->buf, 1);
    for (int i = 0; i < HASH_SIZE; i++)
        out[i] = (uint8_t)(s->h[i / 8] >> (8 * (i % 8)));
}

/* BLAKE2b-128 of prev || body: one link of the chain. */
static void chain_link(const uint8_t *prev, const uint8_t *body, size_t len, uint8_t out[HASH_SIZE])
{
    blake2b_state s;
    blake2b_init(&s);
    blake2b_update(&s, prev, HASH_SIZE);
    blake2b_update(&s, body, len);
    blake2b_final(&s, out);
}

static PyObject *blake2b_128(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer data, key;
    if (!PyArg_ParseTuple(args, "y*y*", &data, &key))
        return NULL;
    blake2b_state s;
    uint8_t out[HASH_SIZE];
    blake2b_init(&s);
    blake2b_update(&s, key.buf, (size_t)key.len);
    blake2b_update(&s, data.buf, (size_t)data.len);
    blake2b_final(&s, out);
    PyBuffer_Release(&data);
    PyBuffer_Release(&key);
    return PyBytes_FromStringAndSize((const char *)out, HASH_SIZE);
}

/* -- the record loop ------------------------------------------------------ */

static PyObject *empty_tuple; /* created at import */

/* The value a field hook builds from ``v``, for the field's kind (Codec.message_spec): a new
 * reference, or NULL if ``v`` does not fit (an exception is set only on a real error). */
static PyObject *convert(PyObject *kind, PyObject *v)
{
    if (PyType_Check(kind)) {
        if (kind == (PyObject *)&PyTuple_Type) { /* a tuple of exact ints, from an array */
            if (!PyList_CheckExact(v))
                return NULL;
            for (Py_ssize_t i = 0; i < PyList_GET_SIZE(v); i++)
                if (!PyLong_CheckExact(PyList_GET_ITEM(v, i)))
                    return NULL;
            return PyList_AsTuple(v);
        }
        if ((PyObject *)Py_TYPE(v) != kind) /* int, str, bool or bytes, exactly */
            return NULL;
        Py_INCREF(v);
        return v;
    }
    PyObject *tag = PyTuple_GET_ITEM(kind, 0), *sub = PyTuple_GET_ITEM(kind, 1);
    if (tag == Py_None) { /* optional */
        if (v == Py_None) {
            Py_INCREF(v);
            return v;
        }
        return convert(sub, v);
    }
    if (!PyList_CheckExact(v)) /* a tuple of ``sub``, from an array */
        return NULL;
    const Py_ssize_t n = PyList_GET_SIZE(v);
    PyObject *out = PyTuple_New(n);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = convert(sub, PyList_GET_ITEM(v, i));
        if (item == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, item);
    }
    return out;
}

#define MAX_SPEC_FIELDS 16

/* Build the message ``msg`` by its spec (cls, builder, field kinds, field slots): if every field
 * fits its kind, a new ``cls`` with its slots set to the converted values, as the builder would;
 * otherwise the builder's own result (or error). */
static PyObject *build_by_spec(PyObject *spec, PyObject *msg)
{
    PyObject *cls = PyTuple_GET_ITEM(spec, 0), *builder = PyTuple_GET_ITEM(spec, 1),
             *kinds = PyTuple_GET_ITEM(spec, 2), *slots = PyTuple_GET_ITEM(spec, 3);
    const Py_ssize_t k = PyTuple_GET_SIZE(kinds);
    if (PyList_GET_SIZE(msg) != k + 1 || k > MAX_SPEC_FIELDS)
        return PyObject_CallOneArg(builder, msg);
    PyObject *values[MAX_SPEC_FIELDS];
    PyObject *obj = NULL;
    Py_ssize_t done = 0;
    for (; done < k; done++) {
        values[done] = convert(PyTuple_GET_ITEM(kinds, done), PyList_GET_ITEM(msg, done + 1));
        if (values[done] == NULL)
            break;
    }
    if (done == k) {
        obj = PyBaseObject_Type.tp_new((PyTypeObject *)cls, empty_tuple, NULL); /* object.__new__(cls) */
        for (Py_ssize_t j = 0; obj != NULL && j < k; j++) {
            PyObject *slot = PyTuple_GET_ITEM(slots, j);
            if (Py_TYPE(slot)->tp_descr_set(slot, obj, values[j]) < 0)
                Py_CLEAR(obj);
        }
    }
    for (Py_ssize_t j = 0; j < done; j++)
        Py_DECREF(values[j]);
    if (done < k && !PyErr_Occurred()) /* a value that does not fit: the builder names it */
        return PyObject_CallOneArg(builder, msg);
    return obj;
}

/* The message of the array ``msg``: a list whose first item is a non-negative int indexing
 * ``table`` at a decoder or a message spec (not None). Returns a new reference to the decoded
 * message, or NULL with or without an exception set. */
static PyObject *decode_message(PyObject *msg, PyObject *table)
{
    if (!PyList_CheckExact(msg) || PyList_GET_SIZE(msg) < 1)
        return NULL;
    PyObject *index = PyList_GET_ITEM(msg, 0);
    if (!PyLong_CheckExact(index))
        return NULL;
    Py_ssize_t i = PyLong_AsSsize_t(index);
    if (i == -1 && PyErr_Occurred())
        return NULL;
    if (i < 0 || i >= PyTuple_GET_SIZE(table))
        return NULL;
    PyObject *decode = PyTuple_GET_ITEM(table, i);
    if (decode == Py_None)
        return NULL;
    if (PyTuple_CheckExact(decode))
        return build_by_spec(decode, msg);
    return PyObject_CallOneArg(decode, msg);
}

static int is_seq(PyObject *o, Py_ssize_t seq)
{
    if (!PyLong_CheckExact(o))
        return 0;
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred())
        return -1;
    return !overflow && v == (long long)seq;
}

/* -1 on a Python error, 0 if ``o`` is not an int >= 0, 1 if it is */
static int is_natural(PyObject *o)
{
    if (!PyLong_CheckExact(o))
        return 0;
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred())
        return -1;
    return overflow ? overflow > 0 : v >= 0;
}

static PyObject *read_records(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *data, *prev_obj, *commands, *events, *unpackb;
    PyTypeObject *record_type;
    Py_ssize_t pos;
    if (!PyArg_ParseTuple(args, "O!nO!O!O!O!O", &PyBytes_Type, &data, &pos, &PyBytes_Type, &prev_obj, &PyTuple_Type,
                          &commands, &PyTuple_Type, &events, &PyType_Type, &record_type, &unpackb))
        return NULL;
    if (PyBytes_GET_SIZE(prev_obj) != HASH_SIZE || !PyType_IsSubtype(record_type, &PyTuple_Type) || pos < 0) {
        PyErr_SetString(PyExc_ValueError, "read_records: bad arguments");
        return NULL;
    }
    const uint8_t *buf = (const uint8_t *)PyBytes_AS_STRING(data);
    const Py_ssize_t n = PyBytes_GET_SIZE(data);
    uint8_t prev[HASH_SIZE], link[HASH_SIZE];
    memcpy(prev, PyBytes_AS_STRING(prev_obj), HASH_SIZE);

    PyObject *records = PyList_New(0), *checkpoints = PyList_New(0), *hashes = PyList_New(0),
             *offsets = PyList_New(0);
    PyObject *reveal = NULL, *raw = NULL, *command = NULL, *out = NULL, *record = NULL;
    if (!records || !checkpoints || !hashes || !offsets)
        goto fail;
    Py_ssize_t seq = 0;
    while (pos < n) {
        if (reveal != NULL || n - pos < 4)
            goto amiss;
        uint32_t length = ((uint32_t)buf[pos] << 24) | ((uint32_t)buf[pos + 1] << 16) | ((uint32_t)buf[pos + 2] << 8) |
                          (uint32_t)buf[pos + 3];
        if (length <= HASH_SIZE || length > MAX_FRAME || (Py_ssize_t)length > n - pos - 4)
            goto amiss;
        const Py_ssize_t end = pos + 4 + (Py_ssize_t)length, mid = end - HASH_SIZE;
        chain_link(prev, buf + pos + 4, (size_t)(mid - pos - 4), link);
        if (memcmp(link, buf + mid, HASH_SIZE) != 0)
            goto amiss;
        memcpy(prev, link, HASH_SIZE);

        PyObject *body = PyBytes_FromStringAndSize((const char *)buf + pos + 4, mid - pos - 4);
        if (body == NULL)
            goto fail;
        raw = PyObject_CallOneArg(unpackb, body);
        Py_DECREF(body);
        if (raw == NULL)
            goto amiss;
        if (!PyList_CheckExact(raw)) {
            if (!PyDict_CheckExact(raw))
                goto amiss;
            reveal = Py_BuildValue("(Onn)", raw, pos, seq); /* checked by the caller */
            Py_CLEAR(raw);
            if (reveal == NULL)
                goto fail;
            pos = end;
            continue;
        }
        if (PyList_GET_SIZE(raw) != 6)
            goto amiss;
        PyObject *rseq = PyList_GET_ITEM(raw, 0), *actor = PyList_GET_ITEM(raw, 1), *cmd = PyList_GET_ITEM(raw, 2),
                 *evs = PyList_GET_ITEM(raw, 3), *rng = PyList_GET_ITEM(raw, 4), *ck = PyList_GET_ITEM(raw, 5);
        int ok = is_seq(rseq, seq);
        if (ok == 1)
            ok = is_natural(rng);
        if (ok < 0)
            goto amiss;
        if (!ok || !PyLong_CheckExact(actor) || !PyList_CheckExact(evs) || !PyList_CheckExact(cmd) ||
            (ck != Py_None && (!PyBytes_CheckExact(ck) || PyBytes_GET_SIZE(ck) != HASH_SIZE)))
            goto amiss;
        command = decode_message(cmd, commands);
        if (command == NULL)
            goto amiss;
        const Py_ssize_t k = PyList_GET_SIZE(evs);
        out = PyTuple_New(k);
        if (out == NULL)
            goto fail;
        for (Py_ssize_t j = 0; j < k; j++) {
            PyObject *event = decode_message(PyList_GET_ITEM(evs, j), events);
            if (event == NULL)
                goto amiss;
            PyTuple_SET_ITEM(out, j, event);
        }
        /* what tuple.__new__(Record, (seq, actor, command, events, rng)) builds */
        record = record_type->tp_alloc(record_type, 5);
        if (record == NULL)
            goto fail;
        PyObject *seq_obj = PyLong_FromSsize_t(seq);
        if (seq_obj == NULL)
            goto fail;
        PyTuple_SET_ITEM(record, 0, seq_obj);
        Py_INCREF(actor);
        PyTuple_SET_ITEM(record, 1, actor);
        PyTuple_SET_ITEM(record, 2, command);
        command = NULL;
        PyTuple_SET_ITEM(record, 3, out);
        out = NULL;
        Py_INCREF(rng);
        PyTuple_SET_ITEM(record, 4, rng);
        PyObject *h = PyBytes_FromStringAndSize((const char *)link, HASH_SIZE);
        PyObject *offset = PyLong_FromSsize_t(pos);
        int failed = h == NULL || offset == NULL || PyList_Append(records, record) < 0 ||
                     PyList_Append(checkpoints, ck) < 0 || PyList_Append(hashes, h) < 0 ||
                     PyList_Append(offsets, offset) < 0;
        Py_XDECREF(h);
        Py_XDECREF(offset);
        Py_CLEAR(record);
        Py_CLEAR(raw);
        if (failed)
            goto fail;
        seq++;
        pos = end;
    }
    PyObject *result = PyTuple_Pack(5, records, checkpoints, hashes, offsets, reveal ? reveal : Py_None);
    Py_DECREF(records);
    Py_DECREF(checkpoints);
    Py_DECREF(hashes);
    Py_DECREF(offsets);
    Py_XDECREF(reveal);
    return result;

amiss:
    /* Something is wrong with the log: None, and the checking loop names it. Errors that are
     * not an Exception (KeyboardInterrupt, ...) propagate, as in the pure-Python loop. */
    if (PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_Exception))
            goto fail;
        PyErr_Clear();
    }
    Py_XDECREF(records);
    Py_XDECREF(checkpoints);
    Py_XDECREF(hashes);
    Py_XDECREF(offsets);
    Py_XDECREF(reveal);
    Py_XDECREF(raw);
    Py_XDECREF(command);
    Py_XDECREF(out);
    Py_XDECREF(record);
    Py_RETURN_NONE;

fail:
    Py_XDECREF(records);
    Py_XDECREF(checkpoints);
    Py_XDECREF(hashes);
    Py_XDECREF(offsets);
    Py_XDECREF(reveal);
    Py_XDECREF(raw);
    Py_XDECREF(command);
    Py_XDECREF(out);
    Py_XDECREF(record);
    return NULL;
}

/* -- the header ------------------------------------------------------------ */

static const char *const HEADER_KEYS[11] = {"game", "rules", "seats", "options", "seeds", "commitment",
                                            "types", "checkpoint_every", "engine", "format", "meta"};
static PyObject *header_keys[11]; /* interned at import */
#define MAX_SEEDS 256
#define FORMAT_VERSION 1

static int str_keys(PyObject *dict)
{
    Py_ssize_t i = 0;
    PyObject *key, *value;
    while (PyDict_Next(dict, &i, &key, &value))
        if (!PyUnicode_CheckExact(key))
            return 0;
    return 1;
}

/* 1 if ``o`` is an exact int in [lo, 2**64) (lo is 0 or 1), 0 if not, -1 on error */
static int in_u64(PyObject *o, int lo)
{
    if (!PyLong_CheckExact(o))
        return 0;
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (overflow < 0 || (!overflow && v < lo))
        return 0;
    if (overflow > 0) {
        unsigned long long u = PyLong_AsUnsignedLongLong(o);
        if (u == (unsigned long long)-1 && PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_OverflowError))
                return -1;
            PyErr_Clear();
            return 0;
        }
    }
    return 1;
}

/* A tuple of 2-tuples from a list of 2-item lists, each [first, second] passing the checks;
 * NULL (with an exception only on a real error) if an item does not. Ints of 2**64 or more are
 * left to the Python reader (which accepts a schema version that large). */
static PyObject *pairs(PyObject *list, int want_str_first, Py_ssize_t min_len, Py_ssize_t max_len)
{
    Py_ssize_t k = PyList_GET_SIZE(list);
    if (k < min_len || k > max_len)
        return NULL;
    PyObject *out = PyTuple_New(k);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *pair = PyList_GET_ITEM(list, i);
        if (!PyList_CheckExact(pair) || PyList_GET_SIZE(pair) != 2)
            goto bad;
        PyObject *a = PyList_GET_ITEM(pair, 0), *b = PyList_GET_ITEM(pair, 1);
        int ok;
        if (want_str_first) /* a type: [tag: str, schema version: int >= 1] */
            ok = PyUnicode_CheckExact(a) ? in_u64(b, 1) : 0;
        else /* a seed: [epoch: int, seed: int in [0, 2**64)] */
            ok = PyLong_CheckExact(a) ? in_u64(b, 0) : 0;
        if (ok <= 0)
            goto bad;
        PyObject *t = PyTuple_Pack(2, a, b);
        if (t == NULL)
            goto bad;
        PyTuple_SET_ITEM(out, i, t);
    }
    return out;
bad:
    Py_DECREF(out);
    return NULL;
}

static PyObject *read_header(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *data, *magic_obj, *unpackb, *header_type = Py_None, *header_slots = Py_None;
    if (!PyArg_ParseTuple(args, "O!O!O|OO", &PyBytes_Type, &data, &PyBytes_Type, &magic_obj, &unpackb, &header_type,
                          &header_slots))
        return NULL;
    if (header_type != Py_None && (!PyType_Check(header_type) || !PyTuple_CheckExact(header_slots) ||
                                   PyTuple_GET_SIZE(header_slots) != 11)) {
        PyErr_SetString(PyExc_ValueError, "read_header: a header type needs its 11 field slots");
        return NULL;
    }
    const uint8_t *buf = (const uint8_t *)PyBytes_AS_STRING(data), *magic = (const uint8_t *)PyBytes_AS_STRING(magic_obj);
    const Py_ssize_t n = PyBytes_GET_SIZE(data), start = PyBytes_GET_SIZE(magic_obj);
    if (start != 8) {
        PyErr_SetString(PyExc_ValueError, "read_header: the magic is 8 bytes");
        return NULL;
    }
    if (n < start + 4 || memcmp(buf, magic, (size_t)start) != 0)
        Py_RETURN_NONE;
    uint32_t length = ((uint32_t)buf[start] << 24) | ((uint32_t)buf[start + 1] << 16) | ((uint32_t)buf[start + 2] << 8) |
                      (uint32_t)buf[start + 3];
    if (length <= HASH_SIZE || length > MAX_FRAME || (Py_ssize_t)length > n - start - 4)
        Py_RETURN_NONE;
    const Py_ssize_t end = start + 4 + (Py_ssize_t)length, mid = end - HASH_SIZE;
    uint8_t link[HASH_SIZE];
    blake2b_state s;
    blake2b_init(&s);
    blake2b_update(&s, magic, (size_t)start);
    blake2b_update(&s, buf + start + 4, (size_t)(mid - start - 4));
    blake2b_final(&s, link);
    if (memcmp(link, buf + mid, HASH_SIZE) != 0)
        Py_RETURN_NONE;

    PyObject *body = PyBytes_FromStringAndSize((const char *)buf + start + 4, mid - start - 4);
    if (body == NULL)
        return NULL;
    PyObject *raw = PyObject_CallOneArg(unpackb, body);
    Py_DECREF(body);
    PyObject *values = NULL, *seeds = NULL, *types = NULL, *h = NULL, *result = NULL;
    if (raw == NULL || !PyDict_CheckExact(raw) || PyDict_GET_SIZE(raw) != 11)
        goto amiss;
    PyObject *v[11];
    for (int i = 0; i < 11; i++) {
        v[i] = PyDict_GetItemWithError(raw, header_keys[i]); /* borrowed */
        if (v[i] == NULL)
            goto amiss; /* 11 keys, not these: from_prim decides */
    }
    PyObject *game = v[0], *rules = v[1], *seats = v[2], *options = v[3], *seeds_raw = v[4], *commitment = v[5],
             *types_raw = v[6], *every = v[7], *engine = v[8], *fmt = v[9], *meta = v[10];
    if (!PyUnicode_CheckExact(game) || !PyLong_CheckExact(rules) || !PyLong_CheckExact(seats) ||
        !PyDict_CheckExact(options) || !(seeds_raw == Py_None || PyList_CheckExact(seeds_raw)) ||
        !PyBytes_CheckExact(commitment) || !PyList_CheckExact(types_raw) || !PyUnicode_CheckExact(engine) ||
        !PyDict_CheckExact(meta) || !str_keys(options) || !str_keys(meta))
        goto amiss;
    int ok = in_u64(every, 1);
    if (ok == 1 && !PyLong_CheckExact(fmt))
        ok = 0;
    if (ok == 1) {
        long f = PyLong_AsLong(fmt);
        if (f == -1 && PyErr_Occurred())
            goto amiss;
        ok = f == FORMAT_VERSION;
    }
    if (ok <= 0)
        goto amiss;
    if (seeds_raw == Py_None) {
        seeds = Py_None;
        Py_INCREF(seeds);
    }
    else if ((seeds = pairs(seeds_raw, 0, 1, MAX_SEEDS)) == NULL)
        goto amiss;
    if ((types = pairs(types_raw, 1, 0, PY_SSIZE_T_MAX)) == NULL)
        goto amiss;
    if (header_type == Py_None)
        values = PyTuple_Pack(11, game, rules, seats, options, seeds, commitment, types, every, engine, fmt, meta);
    else { /* what header_type(*values) builds, its slots set directly */
        PyObject *fields[11] = {game, rules, seats, options, seeds, commitment, types, every, engine, fmt, meta};
        values = PyBaseObject_Type.tp_new((PyTypeObject *)header_type, empty_tuple, NULL);
        for (int i = 0; values != NULL && i < 11; i++) {
            PyObject *slot = PyTuple_GET_ITEM(header_slots, i);
            descrsetfunc set = Py_TYPE(slot)->tp_descr_set;
            if (set == NULL || set(slot, values, fields[i]) < 0)
                Py_CLEAR(values);
        }
    }
    h = PyBytes_FromStringAndSize((const char *)link, HASH_SIZE);
    if (values != NULL && h != NULL)
        result = Py_BuildValue("(OOn)", values, h, end);
    Py_XDECREF(values);
    Py_XDECREF(h);
    Py_XDECREF(seeds);
    Py_XDECREF(types);
    Py_DECREF(raw);
    return result;

amiss:
    Py_XDECREF(raw);
    Py_XDECREF(seeds);
    Py_XDECREF(types);
    if (PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_Exception))
            return NULL;
        PyErr_Clear();
    }
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"read_records", read_records, METH_VARARGS,
     "read_records(data, pos, prev, commands, events, record_type, unpackb)\n--\n\n"
     "The record frames of a log from ``pos``: (records, checkpoints, hashes, offsets, reveal), or None at the\n"
     "first thing amiss. ``reveal`` is None or (the decoded map, its offset, its record number). ``commands``\n"
     "and ``events`` hold, by type index, a decoder, a message spec (cls, builder, field classes, field\n"
     "slots) or None."},
    {"read_header", read_header, METH_VARARGS,
     "read_header(data, magic, unpackb, header_type=None, header_slots=None)\n--\n\n"
     "((game, rules, seats, options, seeds, commitment, types, checkpoint_every, engine, format, meta), hash, end)\n"
     "of a well-formed header with exactly the known fields, or None. With ``header_type`` and the slot\n"
     "descriptors of those 11 fields, the first item is a ``header_type`` with its slots set instead."},
    {"blake2b_128", blake2b_128, METH_VARARGS,
     "blake2b_128(data, key)\n--\n\nBLAKE2b-128 of key || data (the chain link of the log format)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "meeple._speedups",
                                    "The log reader's record loop, compiled (optional).", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__speedups(void)
{
    if (empty_tuple == NULL && (empty_tuple = PyTuple_New(0)) == NULL)
        return NULL;
    for (int i = 0; i < 11; i++)
        if (header_keys[i] == NULL && (header_keys[i] = PyUnicode_InternFromString(HEADER_KEYS[i])) == NULL)
            return NULL;
    return PyModule_Create(&module);
}
