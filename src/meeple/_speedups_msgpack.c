/*
 * msgpack, as far as the log reader needs it in C: unpack_subset decodes the subset record bodies
 * use (nil, booleans, ints, 64-bit floats, strings, binary, arrays; each in its canonical encoding,
 * within meeple.engine.log.MAX_VALUES values) and leaves anything else to
 * meeple.engine.log.decode_body; msgpack_skip and msgpack_read_uint walk a header's map without
 * building it.
 */

#include "_speedups.h"

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
PyObject *unpack_body(const uint8_t *b, Py_ssize_t n, PyObject *decode)
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

PyObject *unpack(PyObject *self, PyObject *args)
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


/* The end of the msgpack object at ``p`` (at most ``end``), or NULL if it is malformed or nested
 * deeper than ``depth``. */
const uint8_t *msgpack_skip(const uint8_t *p, const uint8_t *end, int depth)
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
        if ((p = msgpack_skip(p, end, depth - 1)) == NULL)
            return NULL;
    return p;
}

/* A non-negative msgpack int at ``*p`` in its canonical encoding (positive fixint or the smallest
 * uint 8..64), advancing ``*p``; NULL if it is not one (an exception is set only on a real error). */
PyObject *msgpack_read_uint(const uint8_t **p, const uint8_t *end)
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
