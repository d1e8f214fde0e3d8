/*
 * meeple._speedups: the record loop of the log reader, compiled.
 *
 * read_records() does exactly what the pure-Python fast loop
 * meeple.engine.reader._scan_py does, and accepts exactly the same logs: it
 * walks the record frames, checks each link of the BLAKE2b-128 hash chain,
 * decodes each body (the common msgpack subset here, in its canonical
 * encoding and within the value budget; any other body through
 * meeple.engine.log.decode_body, which decides), checks the record's shape and
 * builds its messages (setting their slots itself where a message has only
 * int, str, bool or bytes fields, else with the decoders of the log's type
 * table). At the first thing amiss it stops and says where, with the body it
 * decoded or the error decoding it raised, and the reader's checking loop goes
 * on from there and names the problem. Building the package without a C
 * compiler skips this module; the reader then uses the pure-Python loop
 * (tests/engine/test_speedups.py holds the two to the same results).
 *
 * BLAKE2b is implemented here from RFC 7693 (unkeyed, 16-byte digest, no salt
 * or personalisation), as the log format defines the chain with it.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
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

/* -- msgpack, the subset record bodies use ---------------------------------- */

#define MAX_VALUES (1 << 16) /* meeple.engine.log.MAX_VALUES: the most msgpack values a frame body holds */

/* Decode the msgpack object at ``*p`` as meeple.engine.log.decode_body does, for bodies in the
 * subset record bodies use: nil, booleans, ints, 64-bit floats, UTF-8 strings, binary and arrays,
 * each in its canonical (smallest) encoding, at most ``*budget`` values in all (each decoded value
 * takes one). Anything else (maps, extension types, a longer encoding than needed, 32-bit floats,
 * nesting deeper than ``depth``, bytes that are not UTF-8, more values than the budget, a body cut
 * short) gives NULL with no exception set, and the caller hands the body to decode_body, which
 * decides and names the problem; NULL with an exception set is a real error. Advances ``*p``
 * past the object. */
static PyObject *unpack_subset(const uint8_t **p, const uint8_t *end, int depth, Py_ssize_t *budget)
{
    if (*p >= end || depth < 0 || --*budget < 0)
        return NULL;
    const uint8_t t = *(*p)++;
    const Py_ssize_t left = end - *p;
    if (t <= 0x7f)
        return PyLong_FromLong(t);
    if (t >= 0xe0)
        return PyLong_FromLong((int8_t)t);
    size_t len = 0, items = 0;
    int width = 0;
    switch (t) {
    case 0xc0: Py_RETURN_NONE;
    case 0xc2: Py_RETURN_FALSE;
    case 0xc3: Py_RETURN_TRUE;
    case 0xcc: case 0xcd: case 0xce: case 0xcf: { /* uint 8..64: the smallest that holds the value */
        width = 1 << (t - 0xcc);
        if (left < width)
            return NULL;
        unsigned long long v = 0;
        for (int i = 0; i < width; i++)
            v = (v << 8) | *(*p)++;
        if (v < (width == 1 ? 0x80ULL : 1ULL << (4 * width))) /* fixint below 128; else the next width down */
            return NULL;
        return PyLong_FromUnsignedLongLong(v);
    }
    case 0xd0: case 0xd1: case 0xd2: case 0xd3: { /* int 8..64: negative values only, the smallest width */
        width = 1 << (t - 0xd0);
        if (left < width)
            return NULL;
        unsigned long long v = 0;
        for (int i = 0; i < width; i++)
            v = (v << 8) | *(*p)++;
        long long sv;
        if (width == 8)
            memcpy(&sv, &v, 8);
        else { /* sign-extend from width bytes */
            const unsigned long long sign = 1ULL << (8 * width - 1);
            sv = (long long)((v ^ sign)) - (long long)sign;
        }
        /* int8 for -128..-33, int16 below -128, int32 below -32768, int64 below -2**31 */
        if (sv >= (width == 1 ? -32LL : -(1LL << (4 * width - 1))))
            return NULL;
        return PyLong_FromLongLong(sv);
    }
    case 0xcb: { /* float 64, big-endian (logs never hold 32-bit floats) */
        if (left < 8)
            return NULL;
        uint64_t bits = 0;
        for (int i = 0; i < 8; i++)
            bits = (bits << 8) | *(*p)++;
        double d;
        memcpy(&d, &bits, 8);
        return PyFloat_FromDouble(d);
    }
    case 0xd9: case 0xc4: case 0xdc: width = 1 + (t == 0xdc); break; /* str8, bin8 (1-byte length); array16 */
    case 0xda: case 0xc5: width = 2; break;
    case 0xdb: case 0xc6: case 0xdd: width = 4; break;
    default:
        if (t >= 0xa0 && t <= 0xbf) {
            len = t & 0x1f;
            goto str;
        }
        if (t >= 0x90 && t <= 0x9f) {
            items = t & 0x0f;
            goto array;
        }
        return NULL; /* maps, extension types, 32-bit floats, 0xc1 */
    }
    if (left < width)
        return NULL;
    for (int i = 0; i < width; i++)
        len = (len << 8) | *(*p)++;
    /* the smallest length field: str8 from 32 bytes (below, fixstr), bin8 from 0, array16 from 16 items
     * (below, fixarray); a 16-bit field from 256 (65536 for arrays), a 32-bit one above 65535 */
    const size_t least = t == 0xd9 ? 32 : t == 0xc4 ? 0 : t == 0xdc ? 16 : width == 2 ? 256 : 65536;
    if (len < least)
        return NULL;
    if (t == 0xdc || t == 0xdd) {
        items = len;
        goto array;
    }
    if ((size_t)(end - *p) < len)
        return NULL;
    if (t == 0xc4 || t == 0xc5 || t == 0xc6) {
        PyObject *b = PyBytes_FromStringAndSize((const char *)*p, (Py_ssize_t)len);
        *p += len;
        return b;
    }
str:
    if ((size_t)(end - *p) < len)
        return NULL;
    {
        PyObject *u = PyUnicode_DecodeUTF8((const char *)*p, (Py_ssize_t)len, "strict");
        if (u == NULL && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError))
            PyErr_Clear(); /* decode_body names the problem */
        *p += len;
        return u;
    }
array:
    if ((size_t)(end - *p) < items || (Py_ssize_t)items > *budget) /* every item takes a byte and a value */
        return NULL;
    {
        PyObject *list = PyList_New((Py_ssize_t)items);
        if (list == NULL)
            return NULL;
        for (size_t i = 0; i < items; i++) {
            PyObject *item = unpack_subset(p, end, depth - 1, budget);
            if (item == NULL) {
                Py_DECREF(list);
                return NULL;
            }
            PyList_SET_ITEM(list, (Py_ssize_t)i, item);
        }
        return list;
    }
}

/* A frame body as ``decode`` (meeple.engine.log.decode_body) decodes it: by unpack_subset where the
 * body is all of that subset, else by ``decode`` itself. NULL with an exception set where decode raises.
 * A body longer than MAX_VALUES bytes (real records are far shorter) goes to ``decode`` at once, which
 * counts its values before it builds any: so no body that long is decoded twice. */
static PyObject *unpack_body(const uint8_t *b, Py_ssize_t n, PyObject *decode)
{
    PyObject *raw;
    if (n <= MAX_VALUES) {
        const uint8_t *p = b;
        Py_ssize_t budget = MAX_VALUES;
        raw = unpack_subset(&p, b + n, 32, &budget);
        if (raw != NULL && p == b + n)
            return raw;
        Py_XDECREF(raw);
        if (PyErr_Occurred())
            return NULL;
    }
    PyObject *body = PyBytes_FromStringAndSize((const char *)b, n);
    if (body == NULL)
        return NULL;
    raw = PyObject_CallOneArg(decode, body);
    Py_DECREF(body);
    return raw;
}

static PyObject *unpack(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer data;
    PyObject *decode;
    if (!PyArg_ParseTuple(args, "y*O", &data, &decode))
        return NULL;
    PyObject *raw = unpack_body(data.buf, data.len, decode);
    PyBuffer_Release(&data);
    return raw;
}

/* Whether ``o`` is an exact int: 1 with its value in *v; 2 for an int beyond a long long, with
 * its sign (1 or -1) in *v; 0 if ``o`` is not an exact int; -1 on error. */
static int int_value(PyObject *o, long long *v)
{
    if (!PyLong_CheckExact(o))
        return 0;
    int overflow;
    *v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (*v == -1 && PyErr_Occurred())
        return -1;
    if (overflow) {
        *v = overflow;
        return 2;
    }
    return 1;
}

/* -1 on a Python error, else whether ``o`` is the int ``seq`` */
static int is_seq(PyObject *o, Py_ssize_t seq)
{
    long long v;
    int kind = int_value(o, &v);
    return kind < 0 ? -1 : kind == 1 && v == (long long)seq;
}

/* -1 on a Python error, else whether ``o`` is an int >= 0 */
static int is_natural(PyObject *o)
{
    long long v;
    int kind = int_value(o, &v);
    return kind < 0 ? -1 : kind > 0 && v >= 0;
}

/* None (a new reference) where a log is amiss, clearing the Exception raised on the way if any;
 * NULL where the error is not an Exception (KeyboardInterrupt, ...), which propagates, as in the
 * pure-Python loops. */
static PyObject *none_if_amiss(void)
{
    if (PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_Exception))
            return NULL;
        PyErr_Clear();
    }
    Py_RETURN_NONE;
}

/* The exception being raised, as an instance, and cleared; NULL (the exception left set) where it is
 * not an Exception (KeyboardInterrupt, ...), which propagates, as in the pure-Python loops. */
static PyObject *take_exception(void)
{
    if (!PyErr_ExceptionMatches(PyExc_Exception))
        return NULL;
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    Py_XDECREF(type);
    Py_XDECREF(tb);
    if (value == NULL) {
        Py_INCREF(Py_None);
        value = Py_None;
    }
    else if (PyExceptionInstance_Check(value))
        PyException_SetTraceback(value, Py_None); /* the traceback holds the frames, and the body they decoded */
    return value;
}

static PyObject *read_records(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *data, *prev_obj, *commands, *events, *decode;
    PyTypeObject *record_type;
    Py_ssize_t pos, every;
    if (!PyArg_ParseTuple(args, "O!nO!O!O!O!On", &PyBytes_Type, &data, &pos, &PyBytes_Type, &prev_obj, &PyTuple_Type,
                          &commands, &PyTuple_Type, &events, &PyType_Type, &record_type, &decode, &every))
        return NULL;
    if (PyBytes_GET_SIZE(prev_obj) != HASH_SIZE || !PyType_IsSubtype(record_type, &PyTuple_Type) || pos < 0 ||
        every < 1) {
        PyErr_SetString(PyExc_ValueError, "read_records: bad arguments");
        return NULL;
    }
    const uint8_t *buf = (const uint8_t *)PyBytes_AS_STRING(data);
    const Py_ssize_t n = PyBytes_GET_SIZE(data);
    uint8_t prev[HASH_SIZE], before[HASH_SIZE], link[HASH_SIZE];
    memcpy(prev, PyBytes_AS_STRING(prev_obj), HASH_SIZE);

    PyObject *records = PyList_New(0), *checkpoints = PyList_New(0), *hashes = PyList_New(0),
             *offsets = PyList_New(0);
    PyObject *reveal = NULL, *raw = NULL, *error = NULL, *command = NULL, *out = NULL, *record = NULL,
             *stop = NULL, *result = NULL;
    if (!records || !checkpoints || !hashes || !offsets)
        goto fail;
    Py_ssize_t seq = 0;
    while (pos < n) {
        memcpy(before, prev, HASH_SIZE);
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

        raw = unpack_body(buf + pos + 4, mid - pos - 4, decode);
        if (raw == NULL) { /* decode_body's error, handed to the checking loop with the frame */
            if ((error = take_exception()) == NULL)
                goto fail;
            goto amiss;
        }
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
        /* a checkpoint with every ``every``-th record, and nil with the others */
        const int due = (seq + 1) % every == 0;
        if (!ok || !PyLong_CheckExact(actor) || !PyList_CheckExact(evs) || !PyList_CheckExact(cmd) ||
            (due ? !PyBytes_CheckExact(ck) || PyBytes_GET_SIZE(ck) != HASH_SIZE : ck != Py_None))
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
    result = PyTuple_Pack(6, records, checkpoints, hashes, offsets, reveal ? reveal : Py_None, Py_None);
    goto done;

amiss: /* something is wrong at the frame at ``pos``: the checking loop goes on from it, and names it */
    if (PyErr_Occurred()) {
        PyObject *ignored = take_exception(); /* a message that does not decode: the checking loop says why */
        if (ignored == NULL)
            goto fail;
        Py_DECREF(ignored);
    }
    stop = Py_BuildValue("(nny#OO)", pos, seq, (const char *)before, (Py_ssize_t)HASH_SIZE, raw ? raw : Py_None,
                         error ? error : Py_None);
    if (stop == NULL)
        goto fail;
    result = PyTuple_Pack(6, records, checkpoints, hashes, offsets, reveal ? reveal : Py_None, stop);
    goto done;
fail:
    result = NULL;
done:
    Py_XDECREF(records);
    Py_XDECREF(checkpoints);
    Py_XDECREF(hashes);
    Py_XDECREF(offsets);
    Py_XDECREF(reveal);
    Py_XDECREF(raw);
    Py_XDECREF(error);
    Py_XDECREF(command);
    Py_XDECREF(out);
    Py_XDECREF(record);
    Py_XDECREF(stop);
    return result;
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
    long long v;
    int kind = int_value(o, &v);
    if (kind <= 0 || v < lo)
        return kind < 0 ? -1 : 0;
    if (kind == 1)
        return 1;
    unsigned long long u = PyLong_AsUnsignedLongLong(o); /* beyond a long long: below 2**64? */
    if (u == (unsigned long long)-1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError))
            return -1;
        PyErr_Clear();
        return 0;
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

/* The writer's key order (sorted), which the span reader below expects. */
static const char *const SORTED_KEYS[11] = {"checkpoint_every", "commitment", "engine", "format", "game", "meta",
                                            "options", "rules", "seats", "seeds", "types"};

/* The end of the msgpack object at ``p`` (at most ``end``), or NULL if it is malformed or nested
 * deeper than ``depth``. */
static const uint8_t *skip(const uint8_t *p, const uint8_t *end, int depth)
{
    if (p >= end || depth < 0)
        return NULL;
    const uint8_t t = *p++;
    size_t len = 0, items = 0;
    if (t <= 0x7f || t >= 0xe0 || t == 0xc0 || t == 0xc2 || t == 0xc3)
        return p;
    if (t >= 0xa0 && t <= 0xbf)
        len = t & 0x1f;
    else if (t >= 0x90 && t <= 0x9f)
        items = t & 0x0f;
    else if (t >= 0x80 && t <= 0x8f)
        items = 2 * (size_t)(t & 0x0f);
    else {
        int width;
        switch (t) {
        case 0xcc: case 0xd0: return end - p >= 1 ? p + 1 : NULL;
        case 0xcd: case 0xd1: return end - p >= 2 ? p + 2 : NULL;
        case 0xce: case 0xd2: case 0xca: return end - p >= 4 ? p + 4 : NULL;
        case 0xcf: case 0xd3: case 0xcb: return end - p >= 8 ? p + 8 : NULL;
        case 0xd4: len = 2; break; /* fixext: type + data */
        case 0xd5: len = 3; break;
        case 0xd6: len = 5; break;
        case 0xd7: len = 9; break;
        case 0xd8: len = 17; break;
        case 0xc4: case 0xd9: case 0xc7: width = 1; goto sized;
        case 0xc5: case 0xda: case 0xc8: case 0xdc: case 0xde: width = 2; goto sized;
        case 0xc6: case 0xdb: case 0xc9: case 0xdd: case 0xdf: width = 4; goto sized;
        default: return NULL; /* 0xc1 */
        sized:
            if (end - p < width)
                return NULL;
            for (int i = 0; i < width; i++)
                len = (len << 8) | *p++;
            if (t == 0xdc || t == 0xdd) {
                items = len;
                len = 0;
            }
            else if (t == 0xde || t == 0xdf) {
                items = 2 * len;
                len = 0;
            }
            else if (t == 0xc7 || t == 0xc8 || t == 0xc9)
                len += 1; /* the ext type byte */
        }
    }
    if ((size_t)(end - p) < len)
        return NULL;
    p += len;
    for (size_t i = 0; i < items; i++)
        if ((p = skip(p, end, depth - 1)) == NULL)
            return NULL;
    return p;
}

/* A non-negative msgpack int at ``*p`` in its canonical encoding (positive fixint or the smallest
 * uint 8..64), advancing ``*p``; NULL if it is not one (an exception is set only on a real error). */
static PyObject *read_uint(const uint8_t **p, const uint8_t *end)
{
    if (*p >= end)
        return NULL;
    const uint8_t t = *(*p)++;
    if (t <= 0x7f)
        return PyLong_FromLong(t);
    int width = t == 0xcc ? 1 : t == 0xcd ? 2 : t == 0xce ? 4 : t == 0xcf ? 8 : 0;
    if (width == 0 || end - *p < width)
        return NULL;
    unsigned long long v = 0;
    for (int i = 0; i < width; i++)
        v = (v << 8) | *(*p)++;
    if (v < (width == 1 ? 0x80ULL : 1ULL << (4 * width)))
        return NULL;
    return PyLong_FromUnsignedLongLong(v);
}

/* For a header body as the writer lays it out (a map of the 11 fields in sorted key order, each
 * key a fixstr): its key (the body without the commitment and seed values, which are all that
 * differ between the logs of one kind of match), its commitment and its seeds (None or a tuple
 * of (int, int)). 1 on success, 0 if the body is laid out otherwise, -1 on error. */
static int header_parts(const uint8_t *b, Py_ssize_t n, PyObject **key, PyObject **commitment, PyObject **seeds)
{
    const uint8_t *p = b, *end = b + n, *cs = NULL, *ce = NULL, *ss = NULL, *se = NULL;
    if (n < 1 || *p++ != 0x8b)
        return 0;
    for (int i = 0; i < 11; i++) {
        size_t klen = strlen(SORTED_KEYS[i]);
        if (end - p < (Py_ssize_t)klen + 1 || *p != (0xa0 | klen) || memcmp(p + 1, SORTED_KEYS[i], klen) != 0)
            return 0;
        p += 1 + klen;
        const uint8_t *v = p;
        if ((p = skip(p, end, 8)) == NULL)
            return 0;
        if (i == 1) {
            cs = v;
            ce = p;
        }
        else if (i == 9) {
            ss = v;
            se = p;
        }
    }
    if (p != end || *cs != 0xc4 || ce - cs != 2 + cs[1])
        return 0;
    PyObject *seed_pairs = NULL;
    if (*ss != 0xc0) { /* an array of 1..256 [epoch, seed] pairs of non-negative ints */
        const uint8_t *q = ss;
        size_t count;
        if (*q >= 0x91 && *q <= 0x9f)
            count = *q++ & 0x0f;
        else if (*q == 0xdc && se - q >= 3) {
            count = ((size_t)q[1] << 8) | q[2];
            q += 3;
        }
        else
            return 0;
        if (count < 1 || count > MAX_SEEDS || (seed_pairs = PyTuple_New((Py_ssize_t)count)) == NULL)
            return count < 1 || count > MAX_SEEDS ? 0 : -1;
        for (size_t i = 0; i < count; i++) {
            if (q >= se || *q++ != 0x92)
                goto no_seeds;
            PyObject *epoch = read_uint(&q, se);
            PyObject *seed = epoch ? read_uint(&q, se) : NULL;
            PyObject *pair = seed ? PyTuple_Pack(2, epoch, seed) : NULL;
            Py_XDECREF(epoch);
            Py_XDECREF(seed);
            if (pair == NULL)
                goto no_seeds;
            PyTuple_SET_ITEM(seed_pairs, (Py_ssize_t)i, pair);
        }
        if (q != se)
            goto no_seeds;
    }
    else {
        seed_pairs = Py_None;
        Py_INCREF(seed_pairs);
    }
    *commitment = PyBytes_FromStringAndSize((const char *)cs + 2, cs[1]);
    *key = PyBytes_FromStringAndSize(NULL, n - (ce - cs) - (se - ss));
    if (*commitment == NULL || *key == NULL) {
        Py_CLEAR(*commitment);
        Py_CLEAR(*key);
        Py_DECREF(seed_pairs);
        return -1;
    }
    char *k = PyBytes_AS_STRING(*key);
    memcpy(k, b, (size_t)(cs - b));
    k += cs - b;
    memcpy(k, ce, (size_t)(ss - ce));
    k += ss - ce;
    memcpy(k, se, (size_t)(end - se));
    *seeds = seed_pairs;
    return 1;
no_seeds:
    Py_DECREF(seed_pairs);
    return PyErr_Occurred() ? -1 : 0;
}

/* A header_type with its 11 slots set to ``fields``, or (without a type) the tuple of them. */
static PyObject *make_header(PyObject *header_type, PyObject *header_slots, PyObject *const fields[11])
{
    if (header_type == Py_None) {
        PyObject *values = PyTuple_New(11);
        for (int i = 0; values != NULL && i < 11; i++) {
            Py_INCREF(fields[i]);
            PyTuple_SET_ITEM(values, i, fields[i]);
        }
        return values;
    }
    PyObject *header = PyBaseObject_Type.tp_new((PyTypeObject *)header_type, empty_tuple, NULL);
    for (int i = 0; header != NULL && i < 11; i++) {
        PyObject *slot = PyTuple_GET_ITEM(header_slots, i);
        descrsetfunc set = Py_TYPE(slot)->tp_descr_set;
        if (set == NULL || set(slot, header, fields[i]) < 0)
            Py_CLEAR(header);
    }
    return header;
}

#define MAX_HEADER_KINDS 64 /* header kinds remembered per cache: a bound for logs of ever new kinds */

static PyObject *read_header(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *data, *magic_obj, *decode, *header_type = Py_None, *header_slots = Py_None, *cache = Py_None;
    if (!PyArg_ParseTuple(args, "O!O!O|OOO", &PyBytes_Type, &data, &PyBytes_Type, &magic_obj, &decode, &header_type,
                          &header_slots, &cache))
        return NULL;
    if ((header_type != Py_None && (!PyType_Check(header_type) || !PyTuple_CheckExact(header_slots) ||
                                    PyTuple_GET_SIZE(header_slots) != 11)) ||
        (cache != Py_None && !PyDict_CheckExact(cache))) {
        PyErr_SetString(PyExc_ValueError, "read_header: a header type needs its 11 field slots; a cache is a dict");
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
    const uint8_t *body_start = buf + start + 4;
    const Py_ssize_t body_len = mid - start - 4;
    uint8_t link[HASH_SIZE];
    blake2b_state s;
    blake2b_init(&s);
    blake2b_update(&s, magic, (size_t)start);
    blake2b_update(&s, body_start, (size_t)body_len);
    blake2b_final(&s, link);
    if (memcmp(link, buf + mid, HASH_SIZE) != 0)
        Py_RETURN_NONE;

    PyObject *h = PyBytes_FromStringAndSize((const char *)link, HASH_SIZE);
    PyObject *key = NULL, *commitment_part = NULL, *seeds_part = NULL, *raw = NULL, *seeds = NULL, *types = NULL,
             *header = NULL, *result = NULL;
    if (h == NULL)
        return NULL;
    if (cache != Py_None) { /* a header of a kind read before: only its seeds and commitment are new */
        int laid_out = header_parts(body_start, body_len, &key, &commitment_part, &seeds_part);
        if (laid_out < 0)
            goto fail;
        PyObject *known = laid_out ? PyDict_GetItemWithError(cache, key) : NULL; /* borrowed */
        if (known == NULL && PyErr_Occurred())
            goto fail;
        if (known != NULL) {
            Py_INCREF(known); /* held while new objects are made (a collection could run other code) */
            PyObject *options = PyDict_Copy(PyTuple_GET_ITEM(known, 3)), *meta = PyDict_Copy(PyTuple_GET_ITEM(known, 8));
            if (options != NULL && meta != NULL) {
                PyObject *const fields[11] = {
                    PyTuple_GET_ITEM(known, 0), PyTuple_GET_ITEM(known, 1), PyTuple_GET_ITEM(known, 2), options,
                    seeds_part, commitment_part, PyTuple_GET_ITEM(known, 4), PyTuple_GET_ITEM(known, 5),
                    PyTuple_GET_ITEM(known, 6), PyTuple_GET_ITEM(known, 7), meta};
                header = make_header(header_type, header_slots, fields);
            }
            Py_XDECREF(options);
            Py_XDECREF(meta);
            Py_DECREF(known);
            if (header == NULL)
                goto fail;
            result = Py_BuildValue("(OOnOO)", header, h, end, key, Py_True);
            goto done;
        }
    }

    PyObject *body = PyBytes_FromStringAndSize((const char *)body_start, body_len);
    if (body == NULL)
        goto fail;
    raw = PyObject_CallOneArg(decode, body);
    Py_DECREF(body);
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
    PyObject *const fields[11] = {game, rules, seats, options, seeds, commitment, types, every, engine, fmt, meta};
    if ((header = make_header(header_type, header_slots, fields)) == NULL)
        goto fail;
    if (key != NULL) { /* remember this kind of header (forgetting all others once there are many) */
        if (PyDict_GET_SIZE(cache) >= MAX_HEADER_KINDS)
            PyDict_Clear(cache);
        PyObject *options_copy = PyDict_Copy(options), *meta_copy = PyDict_Copy(meta);
        PyObject *known = options_copy && meta_copy
                              ? PyTuple_Pack(9, game, rules, seats, options_copy, types, every, engine, fmt, meta_copy)
                              : NULL;
        Py_XDECREF(options_copy);
        Py_XDECREF(meta_copy);
        int failed = known == NULL || PyDict_SetItem(cache, key, known) < 0;
        Py_XDECREF(known);
        if (failed)
            goto fail;
    }
    result = Py_BuildValue("(OOnOO)", header, h, end, key ? key : Py_None, Py_False);
    goto done;

amiss:
    result = none_if_amiss();
    goto done;
fail:
    result = NULL;
done:
    Py_XDECREF(h);
    Py_XDECREF(key);
    Py_XDECREF(commitment_part);
    Py_XDECREF(seeds_part);
    Py_XDECREF(raw);
    Py_XDECREF(seeds);
    Py_XDECREF(types);
    Py_XDECREF(header);
    return result;
}

/* -- the RNG's draws (meeple.engine.rng) ------------------------------------- */

/*
 * RngCore is the compiled base of meeple.engine.rng.Rng: the seed and the
 * counter as two unsigned 64-bit slots, and the draws every game makes most
 * (next64, below, shuffle_in_place), which do exactly what the pure-Python
 * core of rng.py does (SplitMix64 as a counter-based generator; docs/rng.md).
 * tests/engine/test_speedups.py holds the two to the same words, draws and counters.
 */

#define GOLDEN_GAMMA 0x9E3779B97F4A7C15ULL

typedef struct {
    PyObject_HEAD
    unsigned long long seed;
    unsigned long long counter;
} RngCoreObject;

static inline uint64_t splitmix_word(uint64_t seed, uint64_t counter_plus_one)
{
    uint64_t z = seed + counter_plus_one * GOLDEN_GAMMA;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* A uniform value in [0, n) for 1 <= n <= 2**64 - 1 (n == 0 stands for 2**64: the word itself). */
static inline uint64_t draw_below(RngCoreObject *self, uint64_t n)
{
    uint64_t threshold = n ? (0 - n) % n : 0; /* 2**64 mod n: the rejected lowest words */
    uint64_t seed = self->seed, counter = self->counter;
    for (;;) {
        counter++;
        uint64_t x = splitmix_word(seed, counter);
        if (x >= threshold) {
            self->counter = counter;
            return n ? x % n : x;
        }
    }
}

/* obj as an unsigned 64-bit integer in *out; ValueError naming ``what`` if it is out of [0, 2**64). */
static int word_of(PyObject *obj, const char *what, unsigned long long *out)
{
    PyObject *index = PyNumber_Index(obj);
    if (index == NULL)
        return -1;
    unsigned long long value = PyLong_AsUnsignedLongLong(index);
    Py_DECREF(index);
    if (value == (unsigned long long)-1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError))
            PyErr_Format(PyExc_ValueError, "%s must be an integer in [0, 2**64)", what);
        return -1;
    }
    *out = value;
    return 0;
}

static int RngCore_init(RngCoreObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"seed", "counter", NULL};
    PyObject *seed = NULL, *counter = NULL;
    unsigned long long seed_value, counter_value = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O:Rng", kwlist, &seed, &counter))
        return -1;
    if (word_of(seed, "seed", &seed_value) < 0 || (counter != NULL && word_of(counter, "counter", &counter_value) < 0))
        return -1;
    self->seed = seed_value;
    self->counter = counter_value;
    return 0;
}

static PyObject *RngCore_next64(RngCoreObject *self, PyObject *Py_UNUSED(ignored))
{
    self->counter++;
    return PyLong_FromUnsignedLongLong(splitmix_word(self->seed, self->counter));
}

/* 2**64, made at import: below(2**64) draws a whole word. */
static PyObject *two_to_64 = NULL;

/* n as an unsigned 64-bit bound for below() (0 stands for exactly 2**64); -1 with an exception set. */
static int bound_of(PyObject *arg, uint64_t *n)
{
    PyObject *index = PyNumber_Index(arg);
    if (index == NULL)
        return -1;
    int overflow = 0;
    long long small = PyLong_AsLongLongAndOverflow(index, &overflow);
    if (small == -1 && PyErr_Occurred()) {
        Py_DECREF(index);
        return -1;
    }
    if (!overflow) {
        Py_DECREF(index);
        if (small < 1) {
            PyErr_SetString(PyExc_ValueError, "below() needs n >= 1");
            return -1;
        }
        *n = (uint64_t)small;
        return 0;
    }
    if (overflow < 0) {
        Py_DECREF(index);
        PyErr_SetString(PyExc_ValueError, "below() needs n >= 1");
        return -1;
    }
    unsigned long long big = PyLong_AsUnsignedLongLong(index);
    if (big == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        int equal = PyObject_RichCompareBool(index, two_to_64, Py_EQ);
        Py_DECREF(index);
        if (equal < 0)
            return -1;
        if (!equal) {
            PyErr_SetString(PyExc_ValueError, "below() needs n <= 2**64");
            return -1;
        }
        *n = 0;
        return 0;
    }
    Py_DECREF(index);
    *n = (uint64_t)big;
    return 0;
}

static PyObject *RngCore_below(RngCoreObject *self, PyObject *arg)
{
    uint64_t n;
    if (PyLong_CheckExact(arg)) { /* the common case: a small exact int */
        long long small = PyLong_AsLongLong(arg);
        if (small >= 1)
            return PyLong_FromUnsignedLongLong(draw_below(self, (uint64_t)small));
        if (small == -1 && PyErr_Occurred())
            PyErr_Clear();
    }
    if (bound_of(arg, &n) < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(draw_below(self, n));
}

static PyObject *RngCore_shuffle_in_place(RngCoreObject *self, PyObject *items)
{
    Py_ssize_t size = PySequence_Size(items);
    if (size < 0)
        return NULL;
    if (PyList_CheckExact(items)) { /* nothing below runs Python code: the list keeps its size */
        for (Py_ssize_t i = size - 1; i > 0; i--) {
            Py_ssize_t j = (Py_ssize_t)draw_below(self, (uint64_t)i + 1);
            PyObject *a = PyList_GET_ITEM(items, i);
            PyList_SET_ITEM(items, i, PyList_GET_ITEM(items, j));
            PyList_SET_ITEM(items, j, a);
        }
        Py_RETURN_NONE;
    }
    for (Py_ssize_t i = size - 1; i > 0; i--) {
        Py_ssize_t j = (Py_ssize_t)draw_below(self, (uint64_t)i + 1);
        /* items[i], items[j] = items[j], items[i], as the pure-Python loop does it */
        PyObject *at_j = PySequence_GetItem(items, j);
        PyObject *at_i = at_j ? PySequence_GetItem(items, i) : NULL;
        int failed = at_i == NULL || PySequence_SetItem(items, i, at_j) < 0 || PySequence_SetItem(items, j, at_i) < 0;
        Py_XDECREF(at_j);
        Py_XDECREF(at_i);
        if (failed)
            return NULL;
    }
    Py_RETURN_NONE;
}

static PyMemberDef RngCore_members[] = {
    {"seed", T_ULONGLONG, offsetof(RngCoreObject, seed), 0, "The stream's seed."},
    {"counter", T_ULONGLONG, offsetof(RngCoreObject, counter), 0, "Words drawn so far: the next draw is word ``counter``."},
    {NULL},
};

static PyMethodDef RngCore_methods[] = {
    {"next64", (PyCFunction)RngCore_next64, METH_NOARGS,
     "next64()\n--\n\nReturn the next 64-bit word and advance the counter by one."},
    {"below", (PyCFunction)RngCore_below, METH_O,
     "below(n)\n--\n\nReturn a uniform integer in ``[0, n)`` (``n`` >= 1), without bias."},
    {"shuffle_in_place", (PyCFunction)RngCore_shuffle_in_place, METH_O,
     "shuffle_in_place(items)\n--\n\nFisher-Yates shuffle: for i from len-1 down to 1, swap i with below(i+1)."},
    {NULL},
};

static PyTypeObject RngCoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "meeple._speedups.RngCore",
    .tp_doc = "The seed, the counter and the commonest draws of meeple.engine.rng.Rng, compiled.",
    .tp_basicsize = sizeof(RngCoreObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)RngCore_init,
    .tp_members = RngCore_members,
    .tp_methods = RngCore_methods,
};

/* -- building frozen slotted values (meeple.engine.copies.builder) ------------ */

/*
 * SlotBuilder(cls, slots, fallback) is a callable that builds a ``cls`` from its fields, given
 * positionally, by setting its slots, as meeple.engine.copies.builder's Python function does for a
 * slotted attrs class whose __init__ only sets its fields: the same object, without a Python frame
 * or a call per slot. ``slots`` are the fields' member descriptors (object slots of ``cls`` or of
 * its bases), in order; a call with keywords or another number of arguments goes to ``fallback``
 * (the Python builder), which takes or refuses it as it would.
 */

#define MAX_BUILT_SLOTS 32

typedef struct {
    PyObject_HEAD
    PyTypeObject *cls;
    PyObject *fallback;
    Py_ssize_t n;
    Py_ssize_t offsets[MAX_BUILT_SLOTS];
    vectorcallfunc vectorcall;
} SlotBuilderObject;

static PyObject *SlotBuilder_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    SlotBuilderObject *self = (SlotBuilderObject *)callable;
    const Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    if (n != self->n || (kwnames != NULL && PyTuple_GET_SIZE(kwnames) > 0))
        return PyObject_Vectorcall(self->fallback, args, nargsf, kwnames);
    PyObject *obj = self->cls->tp_alloc(self->cls, 0); /* zeroed: every slot empty */
    if (obj == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_INCREF(args[i]);
        *(PyObject **)((char *)obj + self->offsets[i]) = args[i];
    }
    return obj;
}

static PyObject *SlotBuilder_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *cls, *slots, *fallback;
    static char *kwlist[] = {"cls", "slots", "fallback", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!O!O:SlotBuilder", kwlist, &PyType_Type, &cls, &PyTuple_Type,
                                     &slots, &fallback))
        return NULL;
    const Py_ssize_t n = PyTuple_GET_SIZE(slots);
    if (n > MAX_BUILT_SLOTS) {
        PyErr_Format(PyExc_ValueError, "SlotBuilder builds values of at most %d slots", MAX_BUILT_SLOTS);
        return NULL;
    }
    PyTypeObject *kind = (PyTypeObject *)cls;
    if (kind->tp_alloc == NULL || kind->tp_new != PyBaseObject_Type.tp_new) {
        PyErr_Format(PyExc_TypeError, "%s is not built by object.__new__", kind->tp_name);
        return NULL;
    }
    if (!PyCallable_Check(fallback)) {
        PyErr_SetString(PyExc_TypeError, "the fallback must be callable");
        return NULL;
    }
    SlotBuilderObject *self = (SlotBuilderObject *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *d = PyTuple_GET_ITEM(slots, i);
        if (!PyObject_TypeCheck(d, &PyMemberDescr_Type)) {
            PyErr_SetString(PyExc_TypeError, "slots must be member descriptors");
            Py_DECREF(self);
            return NULL;
        }
        PyMemberDescrObject *md = (PyMemberDescrObject *)d;
        if (md->d_member->type != T_OBJECT_EX || (md->d_member->flags & READONLY) ||
            !PyType_IsSubtype(kind, md->d_common.d_type) || md->d_member->offset < (Py_ssize_t)sizeof(PyObject) ||
            md->d_member->offset + (Py_ssize_t)sizeof(PyObject *) > kind->tp_basicsize) {
            PyErr_Format(PyExc_TypeError, "%R is not an object slot of %s", d, kind->tp_name);
            Py_DECREF(self);
            return NULL;
        }
        for (Py_ssize_t j = 0; j < i; j++)
            if (self->offsets[j] == md->d_member->offset) {
                PyErr_Format(PyExc_TypeError, "%R is given twice", d);
                Py_DECREF(self);
                return NULL;
            }
        self->offsets[i] = md->d_member->offset;
    }
    Py_INCREF(cls);
    self->cls = kind;
    Py_INCREF(fallback);
    self->fallback = fallback;
    self->n = n;
    self->vectorcall = SlotBuilder_vectorcall;
    return (PyObject *)self;
}

static int SlotBuilder_traverse(SlotBuilderObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->cls);
    Py_VISIT(self->fallback);
    return 0;
}

static int SlotBuilder_clear(SlotBuilderObject *self)
{
    Py_CLEAR(self->cls);
    Py_CLEAR(self->fallback);
    return 0;
}

static void SlotBuilder_dealloc(SlotBuilderObject *self)
{
    PyObject_GC_UnTrack(self);
    SlotBuilder_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *SlotBuilder_repr(SlotBuilderObject *self)
{
    return PyUnicode_FromFormat("<SlotBuilder of %s>", self->cls ? self->cls->tp_name : "nothing");
}

static PyMemberDef SlotBuilder_members[] = {
    {"cls", T_OBJECT, offsetof(SlotBuilderObject, cls), READONLY, "The class built."},
    {"fallback", T_OBJECT, offsetof(SlotBuilderObject, fallback), READONLY,
     "What builds it from keywords or another number of arguments."},
    {NULL},
};

static PyTypeObject SlotBuilderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "meeple._speedups.SlotBuilder",
    .tp_doc = "SlotBuilder(cls, slots, fallback)\n--\n\n"
              "A builder of ``cls`` from all its fields, positionally, that sets the slots ``slots`` "
              "(member descriptors, in order); other calls go to ``fallback``.",
    .tp_basicsize = sizeof(SlotBuilderObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_new = SlotBuilder_new,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(SlotBuilderObject, vectorcall),
    .tp_traverse = (traverseproc)SlotBuilder_traverse,
    .tp_clear = (inquiry)SlotBuilder_clear,
    .tp_dealloc = (destructor)SlotBuilder_dealloc,
    .tp_repr = (reprfunc)SlotBuilder_repr,
    .tp_members = SlotBuilder_members,
};

static PyMethodDef methods[] = {
    {"read_records", read_records, METH_VARARGS,
     "read_records(data, pos, prev, commands, events, record_type, decode, checkpoint_every)\n--\n\n"
     "The record frames of a log from ``pos``: (records, checkpoints, hashes, offsets, reveal, stop).\n"
     "``reveal`` is None or (the decoded map, its offset, its record number); ``stop`` is None at the end,\n"
     "or at the first thing amiss (offset, record number, chain hash before the frame, its decoded body or\n"
     "None, the exception decoding it raised or None). ``commands`` and ``events`` hold, by type index, a\n"
     "decoder, a message spec (cls, builder, field classes, field slots) or None; ``decode`` decodes the\n"
     "bodies the compiled subset does not take (meeple.engine.log.decode_body)."},
    {"read_header", read_header, METH_VARARGS,
     "read_header(data, magic, decode, header_type=None, header_slots=None, cache=None)\n--\n\n"
     "((game, rules, seats, options, seeds, commitment, types, checkpoint_every, engine, format, meta), hash, end,\n"
     "kind, known) of a well-formed header with exactly the known fields, or None (``known``: the kind was in the\n"
     "cache). With ``header_type`` and the slot\n"
     "descriptors of those 11 fields, the first item is a ``header_type`` with its slots set instead. With a\n"
     "``cache`` dict, headers laid out as the writer lays them out are remembered by ``kind``, their bytes\n"
     "but the commitment and seeds, and a header of a kind read before is not decoded again. ``kind`` is None\n"
     "for a header laid out otherwise."},
    {"unpack", unpack, METH_VARARGS,
     "unpack(data, decode)\n--\n\n``decode(data)``, decoded in C where the data is one msgpack value of nil, booleans,\n"
     "ints, 64-bit floats, strings, binary and arrays only (as record bodies are), each in its canonical\n"
     "encoding, with at most 65536 values; else by ``decode`` itself."},
    {"blake2b_128", blake2b_128, METH_VARARGS,
     "blake2b_128(data, key)\n--\n\nBLAKE2b-128 of key || data (the chain link of the log format)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "meeple._speedups",
                                    "The log reader's record loop, the RNG's draws and a slot builder, compiled (optional).", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__speedups(void)
{
    if (empty_tuple == NULL && (empty_tuple = PyTuple_New(0)) == NULL)
        return NULL;
    for (int i = 0; i < 11; i++)
        if (header_keys[i] == NULL && (header_keys[i] = PyUnicode_InternFromString(HEADER_KEYS[i])) == NULL)
            return NULL;
    if (two_to_64 == NULL) {
        PyObject *one = PyLong_FromLong(1), *bits = PyLong_FromLong(64);
        two_to_64 = one && bits ? PyNumber_Lshift(one, bits) : NULL;
        Py_XDECREF(one);
        Py_XDECREF(bits);
        if (two_to_64 == NULL)
            return NULL;
    }
    if (PyType_Ready(&RngCoreType) < 0)
        return NULL;
    if (PyType_Ready(&SlotBuilderType) < 0)
        return NULL;
    PyObject *mod = PyModule_Create(&module);
    if (mod == NULL)
        return NULL;
    Py_INCREF(&RngCoreType);
    if (PyModule_AddObject(mod, "RngCore", (PyObject *)&RngCoreType) < 0) {
        Py_DECREF(&RngCoreType);
        Py_DECREF(mod);
        return NULL;
    }
    Py_INCREF(&SlotBuilderType);
    if (PyModule_AddObject(mod, "SlotBuilder", (PyObject *)&SlotBuilderType) < 0) {
        Py_DECREF(&SlotBuilderType);
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
