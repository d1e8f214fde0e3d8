/*
 * What the C files of meeple._speedups share (see _speedups.c for the list of them): the log
 * format's constants, BLAKE2b's streaming functions, the msgpack walkers the readers use, the
 * module's Python functions and each part's start at import.
 */

#ifndef MEEPLE_SPEEDUPS_H
#define MEEPLE_SPEEDUPS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>

/* Shared between the files of this one module, not exported from it. */
#if defined(__GNUC__) && !defined(_WIN32)
#define SPEEDUPS_INTERNAL __attribute__((visibility("hidden")))
#else
#define SPEEDUPS_INTERNAL
#endif

#define HASH_SIZE 16                  /* meeple.engine.log.HASH_SIZE: a BLAKE2b-128 chain hash */
#define MAX_FRAME (16 * 1024 * 1024) /* meeple.engine.log: the longest frame a log may hold */

/* The empty tuple, made at import (object.__new__'s arguments). */
SPEEDUPS_INTERNAL extern PyObject *empty_tuple;

/* -- _speedups_blake2b.c -- */

typedef struct {
    uint64_t h[8];
    uint64_t t; /* bytes compressed so far (logs are far below 2**64 bytes) */
    uint8_t buf[128];
    size_t filled;
} blake2b_state;

SPEEDUPS_INTERNAL void blake2b_init(blake2b_state *s);
SPEEDUPS_INTERNAL void blake2b_update(blake2b_state *s, const uint8_t *in, size_t len);
SPEEDUPS_INTERNAL void blake2b_final(blake2b_state *s, uint8_t out[HASH_SIZE]);
/* BLAKE2b-128 of prev || body: one link of the chain. */
SPEEDUPS_INTERNAL void chain_link(const uint8_t *prev, const uint8_t *body, size_t len, uint8_t out[HASH_SIZE]);
SPEEDUPS_INTERNAL PyObject *blake2b_128(PyObject *self, PyObject *args);

/* -- _speedups_msgpack.c -- */

SPEEDUPS_INTERNAL PyObject *unpack_body(const uint8_t *b, Py_ssize_t n, PyObject *decode);
SPEEDUPS_INTERNAL const uint8_t *msgpack_skip(const uint8_t *p, const uint8_t *end, int depth);
SPEEDUPS_INTERNAL PyObject *msgpack_read_uint(const uint8_t **p, const uint8_t *end);
SPEEDUPS_INTERNAL PyObject *unpack(PyObject *self, PyObject *args);

/* -- _speedups_records.c, _speedups_header.c -- */

SPEEDUPS_INTERNAL PyObject *read_records(PyObject *self, PyObject *args);
SPEEDUPS_INTERNAL PyObject *read_header(PyObject *self, PyObject *args);
SPEEDUPS_INTERNAL int speedups_header_init(void);

/* -- _speedups_rng.c, _speedups_slots.c: the module's two types -- */

SPEEDUPS_INTERNAL extern PyTypeObject RngCoreType;
SPEEDUPS_INTERNAL int speedups_rng_init(void);
SPEEDUPS_INTERNAL extern PyTypeObject SlotBuilderType;

/* -- _speedups_fill.c -- */

SPEEDUPS_INTERNAL PyObject *fill_kings(PyObject *self, PyObject *args);
SPEEDUPS_INTERNAL int speedups_fill_init(void);

/* -- _speedups_gophers.c -- */

SPEEDUPS_INTERNAL PyObject *fill_gophers(PyObject *self, PyObject *args);
SPEEDUPS_INTERNAL int speedups_gophers_init(void);

/* Whether ``o`` is an exact int: 1 with its value in *v; 2 for an int beyond a long long, with
 * its sign (1 or -1) in *v; 0 if ``o`` is not an exact int; -1 on error. */
static inline int int_value(PyObject *o, long long *v)
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

/* -- what the compiled observation fills share (_speedups_fill.c, _speedups_gophers.c) -- */

/* a mod n, never negative (Python's %). */
static inline long fill_wrap(long a, long n) { return ((a % n) + n) % n; }

/* out[i] = v, within the buffer's size bytes and a byte; -1 with ValueError (naming ``who``) otherwise. */
static inline int fill_put(uint8_t *out, Py_ssize_t size, long i, long v, const char *who)
{
    if (i < 0 || i >= size || v < 0 || v > 255) {
        PyErr_Format(PyExc_ValueError, "%s: %ld at %ld is outside the observation's bytes", who, v, i);
        return -1;
    }
    out[i] = (uint8_t)v;
    return 0;
}

/* An int as a long; -1 with an error set when it is not one (or does not fit). */
static inline int fill_as_long(PyObject *o, long *v)
{
    *v = PyLong_AsLong(o);
    return (*v == -1 && PyErr_Occurred()) ? -1 : 0;
}

/* The view's field ``name`` as a fast sequence (a new reference), or NULL with an error that says
 * ``message`` when it is not a sequence. */
static inline PyObject *fill_field_seq(PyObject *view, PyObject *name, const char *message)
{
    PyObject *o = PyObject_GetAttr(view, name);
    if (o == NULL)
        return NULL;
    PyObject *seq = PySequence_Fast(o, message);
    Py_DECREF(o);
    return seq;
}

/* The arguments every fill takes, ``(spec, view, seat, out)`` by ``format``: ``spec`` a tuple of
 * ``items`` items whose first ``n_ints`` are ints (read into ``v``; ``v[seats_at]`` the seats, 1 to
 * ``most_seats``), ``seat`` one of those seats, ``out`` a bytearray (its bytes in *bytes, *size).
 * 0, or -1 with ValueError (naming ``who``) or the parser's error. */
static inline int fill_args(PyObject *args, const char *format, const char *who, Py_ssize_t items, int n_ints,
                            int seats_at, long most_seats, long *v, PyObject **spec, PyObject **view, long *seat,
                            uint8_t **bytes, Py_ssize_t *size)
{
    PyObject *out;
    if (!PyArg_ParseTuple(args, format, &PyTuple_Type, spec, view, seat, &out))
        return -1;
    if (PyTuple_GET_SIZE(*spec) != items) {
        PyErr_Format(PyExc_ValueError, "%s: the spec has %zd items", who, items);
        return -1;
    }
    for (int i = 0; i < n_ints; i++)
        if (fill_as_long(PyTuple_GET_ITEM(*spec, i), &v[i]) < 0)
            return -1;
    if (v[seats_at] < 1 || v[seats_at] > most_seats) {
        PyErr_Format(PyExc_ValueError, "%s: a malformed spec", who);
        return -1;
    }
    if (*seat < 0 || *seat >= v[seats_at]) {
        PyErr_Format(PyExc_ValueError, "%s: no seat %ld", who, *seat);
        return -1;
    }
    *bytes = (uint8_t *)PyByteArray_AS_STRING(out);
    *size = PyByteArray_GET_SIZE(out);
    return 0;
}

#endif
