/*
 * The log's header frame, compiled: read_header() checks the magic and the header's chain link,
 * decodes the header map and checks its 11 fields as meeple.engine.log does, and remembers each
 * kind of header (its bytes but the commitment and the seeds) so that a header of a kind read
 * before is not decoded again.
 */

#include "_speedups.h"

static const char *const HEADER_KEYS[11] = {"game", "rules", "seats", "options", "seeds", "commitment",
                                            "types", "checkpoint_every", "engine", "format", "meta"};
static PyObject *header_keys[11]; /* interned at import (speedups_header_init) */
#define MAX_SEEDS 256 /* meeple.engine.seeds.MAX_SEEDS */
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
        if ((p = msgpack_skip(p, end, 8)) == NULL)
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
            PyObject *epoch = msgpack_read_uint(&q, se);
            PyObject *seed = epoch ? msgpack_read_uint(&q, se) : NULL;
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

PyObject *read_header(PyObject *self, PyObject *args)
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

int speedups_header_init(void)
{
    for (int i = 0; i < 11; i++)
        if (header_keys[i] == NULL && (header_keys[i] = PyUnicode_InternFromString(HEADER_KEYS[i])) == NULL)
            return -1;
    return 0;
}
